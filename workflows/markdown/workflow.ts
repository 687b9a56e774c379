/**
 * The daily markdown run (./contract.ts; docs/decisions/0055-markdowns-by-one-daily-update.md), started by a
 * Temporal Schedule at 00:00 in the marketplace's zone: the day's due steps in one statement, then the stepped
 * listings through the matches a page at a time. The schedule is the timer: no workflow waits per listing.
 *
 * Deterministic: imports only @temporalio/workflow, the kit's policies, domain/ and its activities' interface.
 */
import { proxyActivities, workflowInfo } from "@temporalio/workflow";
import { localDateISO } from "../../domain/business-days";
import { SETUP_CALLS } from "../common/policies";
import type { MarkdownActivities } from "./activities";
import { MARKDOWN_MATCH_PAGE, type MarkdownDayInput, type MarkdownDayResult } from "./contract";

/** The day's statement may take a while at scale (docs/performance.md, "Markdowns"). */
const db = proxyActivities<MarkdownActivities>({
  ...SETUP_CALLS.database,
  startToCloseTimeout: "10m",
});

export async function markdownDayWorkflow(input: MarkdownDayInput): Promise<MarkdownDayResult> {
  const day = input.day ?? localDateISO(workflowInfo().startTime.getTime(), input.timeZone);
  const { stepped, ended } = await db.applyMarkdownDay({ day });
  let afterId = 0;
  let matched = 0;
  for (;;) {
    const page = await db.recordMarkdownMatches({ day, afterId, limit: MARKDOWN_MATCH_PAGE });
    matched += page.matched;
    afterId = page.lastId;
    if (page.count < MARKDOWN_MATCH_PAGE) break;
  }
  return { day, stepped, ended, matched };
}
