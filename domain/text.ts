import { z } from "zod";

/**
 * Free text typed by a user (names, addresses, comments): the building block every free-text field of a
 * form schema starts from, so none of them lets a control character through (a NUL byte cannot even be
 * stored by Postgres, and the others are never typed on purpose). A single-line field refuses every control
 * character; a multi-line one (a textarea) keeps tab, line feed and carriage return.
 */
export const CONTROL_CHARACTERS_MESSAGE = "Remove control characters from this field.";

/** Unicode Cc (C0, DEL, C1) plus the line and paragraph separators. */
const SINGLE_LINE = /^[^\p{Cc}\u2028\u2029]*$/u;
/** The same, tab, LF and CR allowed. */
const MULTI_LINE = /^(?:[^\p{Cc}\u2028\u2029]|[\t\n\r])*$/u;

/** `z.string(params).trim()` that refuses control characters (chain `.min()`, `.max()`... as usual). */
export function text(params?: z.RawCreateParams & { multiline?: boolean }) {
  const { multiline, ...rest } = params ?? {};
  return z
    .string(rest)
    .trim()
    .regex(multiline ? MULTI_LINE : SINGLE_LINE, CONTROL_CHARACTERS_MESSAGE);
}
