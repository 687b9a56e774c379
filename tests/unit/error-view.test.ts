// The error page never shows what Remix's router writes itself (found by tests/e2e/fuzz.test.ts: a POST to a
// page without an action showed "Error: You made a POST request to ... but did not provide an `action` for
// route "routes/...").
import { isRouteErrorResponse } from "@remix-run/react";
import { DEFAULT_ERROR_TEXT, errorView, METHOD_NOT_ALLOWED_TEXT } from "../../app/components/errors";

test("an internal 405 or 400 of the router shows a plain text, a thrown Response its own", () => {
  const internal = (status: number, data: string) => ({ status, statusText: "", data, internal: true, error: new Error(data) });
  const posted = internal(405, 'Error: You made a POST request to "/x" but did not provide an `action` for route "routes/x"');
  expect(errorView(posted, isRouteErrorResponse)).toEqual({ status: 405, title: "405", text: METHOD_NOT_ALLOWED_TEXT });
  expect(errorView(internal(400, "Error: bad route id"), isRouteErrorResponse).text).toBe(DEFAULT_ERROR_TEXT);
  const thrown = { status: 400, statusText: "", data: "Bad request: the form could not be read.", internal: false };
  expect(errorView(thrown, isRouteErrorResponse).text).toBe("Bad request: the form could not be read.");
});
