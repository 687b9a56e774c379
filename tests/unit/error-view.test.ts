// The error page never shows what Remix's router writes itself (found by tests/e2e/fuzz.test.ts: a POST to a
// page without an action showed "Error: You made a POST request to ... but did not provide an `action` for
// route "routes/...").
import { isRouteErrorResponse } from "@remix-run/react";
import {
  DEFAULT_ERROR_TEXT,
  errorView,
  METHOD_NOT_ALLOWED_TEXT,
  TRY_AGAIN_TEXT,
  TRY_AGAIN_TITLE,
} from "../../app/components/errors";
import { isDatabaseUnavailable, orUnavailable } from "../../app/utils/db-unavailable.server";
import { DATABASE_UNAVAILABLE_MESSAGE } from "../../domain/messages";

test("an internal 405 or 400 of the router shows a plain text, a thrown Response its own", () => {
  const internal = (status: number, data: string) => ({
    status,
    statusText: "",
    data,
    internal: true,
    error: new Error(data),
  });
  const posted = internal(
    405,
    'Error: You made a POST request to "/x" but did not provide an `action` for route "routes/x"',
  );
  expect(errorView(posted, isRouteErrorResponse)).toEqual({
    status: 405,
    title: "405",
    text: METHOD_NOT_ALLOWED_TEXT,
  });
  expect(errorView(internal(400, "Error: bad route id"), isRouteErrorResponse).text).toBe(
    DEFAULT_ERROR_TEXT,
  );
  const thrown = {
    status: 400,
    statusText: "",
    data: "Bad request: the form could not be read.",
    internal: false,
  };
  expect(errorView(thrown, isRouteErrorResponse).text).toBe(
    "Bad request: the form could not be read.",
  );
});

test("a database that does not answer: the session read throws a 503 whose page says to try again", async () => {
  const refused = Object.assign(new Error("Failed query"), {
    cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
  });
  const shutdown = Object.assign(new Error("terminating connection due to administrator command"), {
    code: "57P01",
  });
  expect([refused, shutdown, { code: "CONNECTION_CLOSED" }].map(isDatabaseUnavailable)).toEqual([
    true,
    true,
    true,
  ]);
  expect(
    [new Error("syntax error"), { code: "23505" }, null, "ECONNREFUSED"].map(isDatabaseUnavailable),
  ).toEqual([false, false, false, false]);
  const thrown = await orUnavailable(() => Promise.reject(refused)).catch((e: unknown) => e);
  expect(thrown).toBeInstanceOf(Response);
  const response = thrown as Response;
  expect([response.status, response.headers.get("Retry-After"), await response.text()]).toEqual([
    503,
    "5",
    DATABASE_UNAVAILABLE_MESSAGE,
  ]);
  const view = errorView(
    { status: 503, statusText: "", data: DATABASE_UNAVAILABLE_MESSAGE, internal: false },
    isRouteErrorResponse,
  );
  expect(view).toEqual({ status: 503, title: TRY_AGAIN_TITLE, text: TRY_AGAIN_TEXT });
  // Any other server error keeps the generic page.
  expect(
    errorView({ status: 500, statusText: "", data: "boom", internal: false }, isRouteErrorResponse)
      .text,
  ).toBe("A server error has occured");
  await expect(orUnavailable(() => Promise.reject(new Error("syntax error")))).rejects.toThrow(
    "syntax error",
  );
});
