import { z } from "zod";

/**
 * Free text typed by a user (names, addresses, comments). Control characters are refused once, where input
 * is parsed (ADR 0053): every form's values, field names and file names by app/utils/form.server.ts, with
 * CONTROL_CHARACTERS_MESSAGE on the field; a page's URL parameters by the page's own parser. What remains for
 * a free-text field of a schema is the shape of its text: a single-line field refuses line breaks (tab, line
 * feed, carriage return, the line and paragraph separators), and no field takes a C1 control character.
 */
export const CONTROL_CHARACTERS_MESSAGE = "Remove control characters from this field.";

/**
 * A control character refused wherever input is parsed: C0 but tab, line feed and carriage return, and DEL
 * (NUL among them, which no text column can store). Tab, LF and CR belong to multi-line text.
 */
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** C1 controls plus the line and paragraph separators, and line breaks. */
const SINGLE_LINE = /^[^\t\n\r\u0080-\u009F\u2028\u2029]*$/;
/** The same, tab, LF and CR allowed. */
const MULTI_LINE = /^[^\u0080-\u009F\u2028\u2029]*$/;

/** `z.string(params).trim()` with its line shape (chain `.min()`, `.max()`... as usual). */
export function text(params?: z.RawCreateParams & { multiline?: boolean }) {
  const { multiline, ...rest } = params ?? {};
  return z
    .string(rest)
    .trim()
    .regex(multiline ? MULTI_LINE : SINGLE_LINE, CONTROL_CHARACTERS_MESSAGE);
}
