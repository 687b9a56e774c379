export const APP_NAME = "Wholesale Exchange";

/** "<page> | Wholesale Exchange"; the bare product name for the home page. */
export function pageTitle(page?: string): string {
  return page ? `${page} | ${APP_NAME}` : APP_NAME;
}
