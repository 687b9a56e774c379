// No answer carries SQL, parameters or a stack (app/utils/server-error.server.ts, called by handleError in
// app/entry.server.tsx): what Remix writes of an error outside production, after the redaction, holds none of
// the failed query's text.
import { REDACTED_ERROR_TEXT, redactServerError } from "../../app/utils/server-error.server";

/** A failed query as the database driver and Drizzle throw it: the SQL and parameters in message and fields. */
function failedQuery(): Error {
  const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
    name: "PostgresError",
    query: "insert into stock_imports (file_name, cells) values ($1, $2)",
    parameters: ["stock\u0000.csv", '[["CF-610","12"]]'],
    detail: "Key (file_name)=(stock.csv) already exists.",
  });
  return Object.assign(
    new Error(
      'Failed query: insert into "stock_imports" ("file_name", "cells") values ($1, $2)\nparams: stock.csv,[["CF-610","12"]]',
      { cause },
    ),
    { name: "DrizzleQueryError", query: "insert into stock_imports", params: ["stock.csv"] },
  );
}

const SECRETS =
  /insert|stock_imports|CF-610|params|stock\.csv|PostgresError|DrizzleQueryError|\n\s+at /;

test("a redacted error says nothing of its query, parameters, stack or cause, whatever Remix reads of it", () => {
  const error = failedQuery();
  expect(String(error)).toMatch(SECRETS);
  redactServerError(error);
  // what Remix's resource routes write in development ("Unexpected Server Error\n\n" + String(error)) and what
  // its pages serialize for hydration (message, stack, the name as a subtype)
  const written = [
    String(error),
    `${error}`,
    error.message,
    String(error.stack),
    error.name,
    JSON.stringify(error),
    JSON.stringify({ message: error.message, stack: error.stack, subType: error.name }),
    String((error as { cause?: unknown }).cause),
  ].join("\n");
  expect(written).not.toMatch(SECRETS);
  expect(String(error)).toBe(REDACTED_ERROR_TEXT);
  expect(error.stack).toBeUndefined();
  expect(error).toBeInstanceOf(Error);
});

test("anything else is left alone; a cycle of causes ends", () => {
  const text = "not an error";
  redactServerError(text);
  redactServerError(null);
  const a = new Error("a SELECT 1") as Error & { cause?: unknown };
  const b = new Error("b SELECT 2", { cause: a });
  a.cause = b;
  redactServerError(b);
  expect(`${a.message}${b.message}`).not.toMatch(/SELECT/);
});
