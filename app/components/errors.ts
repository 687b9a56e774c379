/** Error texts (docs/product/screens.md, "Messages shown everywhere"), verbatim (typos included). */
export const SERVER_ERROR_TITLE = "500";
export const SERVER_ERROR_TEXT = "A server error has occured";
export const DEFAULT_ERROR_TEXT = "An error has occured";
export const NOT_FOUND_TITLE = "Page not found";
export const NOT_FOUND_TEXT = "Sorry, we could not find the page you were looking for.";
/** A 503's title and text (ours). */
export const TRY_AGAIN_TITLE = "Please try again";
export const TRY_AGAIN_TEXT =
  "The marketplace is briefly unavailable. Please try again in a moment.";

export interface ErrorView {
  status: number;
  title: string;
  text: string;
}

/** What a request the router itself refused shows (its own texts name routes and files). */
export const METHOD_NOT_ALLOWED_TEXT = "This page cannot be sent a form.";

/**
 * What an error page shows. Only a thrown Response's status and a short plain-text body are
 * ever shown; an Error's message and stack never are (they are logged on the server), nor the texts of the
 * errors Remix's router makes itself (`internal`: a POST to a page without an action, ...).
 */
export function errorView(
  error: unknown,
  isResponse: (e: unknown) => e is { status: number; data: unknown },
): ErrorView {
  if (isResponse(error)) {
    if (error.status === 404) return { status: 404, title: NOT_FOUND_TITLE, text: NOT_FOUND_TEXT };
    // A service briefly unavailable (the database restarting): the page asks to try again, in its own words,
    // never the thrown text.
    if (error.status === 503) return { status: 503, title: TRY_AGAIN_TITLE, text: TRY_AGAIN_TEXT };
    if (error.status >= 500)
      return { status: error.status, title: SERVER_ERROR_TITLE, text: SERVER_ERROR_TEXT };
    if ((error as { internal?: unknown }).internal === true) {
      return {
        status: error.status,
        title: String(error.status),
        text: error.status === 405 ? METHOD_NOT_ALLOWED_TEXT : DEFAULT_ERROR_TEXT,
      };
    }
    const text =
      typeof error.data === "string" && error.data.length > 0 && error.data.length < 300
        ? error.data
        : DEFAULT_ERROR_TEXT;
    return { status: error.status, title: String(error.status), text };
  }
  return { status: 500, title: SERVER_ERROR_TITLE, text: SERVER_ERROR_TEXT };
}
