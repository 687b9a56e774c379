export const APP_NAME = "Wholesale Exchange";

/** "<page> | Wholesale Exchange"; the bare product name for the home page. */
export function pageTitle(page?: string): string {
  return page ? `${page} | ${APP_NAME}` : APP_NAME;
}

/** A meta export for a route that only sets its title. */
export function titleMeta(page?: string) {
  return () => [{ title: pageTitle(page) }];
}
