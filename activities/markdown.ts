/**
 * The daily markdown run's activities (workflows/markdown/activities.ts; docs/product/markdowns.md): the day's
 * one statement and the matches of its steps, both in db/queries/markdowns.ts.
 */
import type { Db } from "../db/client";
import { applyMarkdownDay, recordMarkdownMatches } from "../db/queries/markdowns";
import type { MarkdownActivities } from "../workflows/markdown/activities";

export function createMarkdownActivities(deps: { db: Db }): MarkdownActivities {
  return {
    applyMarkdownDay: ({ day }) => applyMarkdownDay(deps.db, day),
    recordMarkdownMatches: (input) => recordMarkdownMatches(deps.db, input),
  };
}
