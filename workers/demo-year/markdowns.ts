/**
 * The demo year's daily markdown run (docs/product/markdowns.md, "When a step happens"; ADR 0063). In the app a
 * Temporal Schedule starts workflows/markdown at 00:00 in the marketplace's zone; on the year's time-skipping
 * server the clock (clock.ts) calls this after each advance instead, and it runs, for every local day the
 * advance passed, the activities the daily workflow runs (activities/markdown.ts): the day's due steps, then
 * the stepped listings through the matches a page at a time. A day before the first due step (the earliest
 * next_step_date of an active schedule) is skipped: its run would find nothing due.
 */
import { eq, min } from "drizzle-orm";
import { createMarkdownActivities } from "../../activities/markdown";
import type { Db } from "../../db/client";
import { listingMarkdowns } from "../../db/schema";
import { localDateISO } from "../../domain/business-days";
import { addDaysISO } from "../../domain/markdown";
import { MARKDOWN_MATCH_PAGE } from "../../workflows/markdown/contract";

export interface MarkdownRuns {
  /** After the clock reached `serverMs`: the runs of the days up to its local day. */
  reached(serverMs: number): Promise<void>;
  /** Steps taken so far. */
  steps(): number;
}

export function markdownRuns(db: Db, timeZone: string): MarkdownRuns {
  const run = createMarkdownActivities({ db });
  let last: string | null = null;
  let stepped = 0;
  const day = async (d: string) => {
    stepped += (await run.applyMarkdownDay({ day: d })).stepped;
    for (let afterId = 0; ; ) {
      const page = await run.recordMarkdownMatches({ day: d, afterId, limit: MARKDOWN_MATCH_PAGE });
      afterId = page.lastId;
      if (page.count < MARKDOWN_MATCH_PAGE) break;
    }
  };
  const firstDue = async () => {
    const [{ due }] = await db
      .select({ due: min(listingMarkdowns.nextStepDate) })
      .from(listingMarkdowns)
      .where(eq(listingMarkdowns.status, "active"));
    return due;
  };
  return {
    async reached(serverMs) {
      const today = localDateISO(serverMs, timeZone);
      let next = last === null ? today : addDaysISO(last, 1);
      for (;;) {
        const due = await firstDue();
        const d = due === null ? null : due > next ? due : next;
        if (d === null || d > today) break;
        await day(d);
        next = addDaysISO(d, 1);
      }
      last = today;
    },
    steps: () => stepped,
  };
}
