/**
 * The daily markdown run (docs/product/markdowns.md; docs/decisions/0055-markdowns-by-one-daily-update.md): ids,
 * inputs and results. No Temporal imports, no I/O: the worker's schedule names them from here.
 */
export const MARKDOWN_DAY_WORKFLOW_TYPE = "markdownDayWorkflow";

/** The schedule that starts the day's run at 00:00 in the marketplace's zone (created by the worker when missing). */
export const MARKDOWN_SCHEDULE_ID = "markdown-day";

/** How many of the day's steps one activity runs through the matches. */
export const MARKDOWN_MATCH_PAGE = 500;

export interface MarkdownDayInput {
  /** The marketplace's zone: the day is the local date of the run's start in it. */
  timeZone: string;
  /** The local day to run (YYYY-MM-DD), for an operator's run by hand; the schedule's run leaves it out. */
  day?: string;
}

export interface MarkdownDayResult {
  day: string;
  /** Listings that stepped. */
  stepped: number;
  /** Schedules ended by their end date without a step. */
  ended: number;
  /** New matches the steps made. */
  matched: number;
}
