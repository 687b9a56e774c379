/**
 * The activities of the daily markdown run (./workflow.ts): the interface only, implemented by
 * activities/markdown.ts.
 */
export interface MarkdownActivities {
  /** The day's due steps in one statement (a second call for the same day changes nothing). */
  applyMarkdownDay(input: { day: string }): Promise<{ stepped: number; ended: number }>;
  /** A page of the day's steps (after history row `afterId`) through the matches; idempotent. */
  recordMarkdownMatches(input: {
    day: string;
    afterId: number;
    limit: number;
  }): Promise<{ lastId: number; count: number; matched: number }>;
}
