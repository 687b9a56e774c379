/**
 * The one way an action reads a form (ADR 0016): a guard in front of every form parse.
 *
 * `readFormData(request)` reads the body itself with a byte cap (a declared Content-Length over the cap is
 * refused before anything is read), parses it (urlencoded, or multipart with or without files) and checks the
 * field names, so that no body can make the parse that follows (Conform, Zod) slow or huge:
 *   - at most `maxBytes` (512 KB without files)                                  → 413
 *   - at most `maxEntries` fields, one name at most `maxRepeats` times,
 *     names of at most `maxNameLength` characters, list indices `name[i]` at most `maxIndex`,
 *     all lists together at most `maxListSlots` long                            → 400
 *   - anything that is not a readable form                                       → 400
 * The refusals are thrown as plain-text Responses with a short message (the error page shows it).
 *
 * Control characters (domain/text.ts CONTROL_CHARACTER: C0 but tab, line feed and carriage return, and DEL;
 * NUL among them, which no text column can store) are taken out here, of every value, field name and file
 * name, whatever the form (ADR 0051, ADR 0053); `controlFields(form)` names the fields that held one, and
 * `parseSubmission` refuses such a form with one message on each of those fields and one on the form (a 400
 * by the action's usual refusal, the rest of the input kept). A reader without Conform (the stock import API)
 * asks `readFormData` to refuse it instead (`refuseControl`: a 400 with `CONTROL_REFUSED`).
 *
 * `parseSubmission(formData, { schema })` is Conform's `parseWithZod` that never throws on what a client sent:
 * Conform's reserved fields `__intent__` (list buttons without JavaScript) and `__state__` must be what Conform
 * itself writes, with names and indices inside the same caps; anything else is a 400.
 */
import { parse, type Submission, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  MaxPartSizeExceededError,
  unstable_parseMultipartFormData,
  type UploadHandler,
} from "@remix-run/node";
import { z, type input, type output, type ZodTypeAny } from "zod";
import { CONTROL_CHARACTER, CONTROL_CHARACTERS_MESSAGE } from "../../domain/text";

export const FORM_LIMITS = Object.freeze({
  /** Bytes of a form without files. The largest real ones (a 2,000-character comment, a size grid) are a few KB. */
  maxBytes: 512 * 1024,
  /** Fields in one form. The largest real one (a size grid of 100 sizes, or a brand list) has a few hundred. */
  maxEntries: 2000,
  /** Times one name may repeat (checkboxes of one list: the brands a retailer trades). */
  maxRepeats: 500,
  maxNameLength: 200,
  /** Highest list index in a name, `sizes[999]` (size runs have at most 100 sizes). */
  maxIndex: 999,
  /** All lists of a form together (each counts its highest index + 1). */
  maxListSlots: 5000,
});

export type FormLimits = { readonly [K in keyof typeof FORM_LIMITS]: number };

/** After a refusal, the rest of the body is read and dropped (so the client gets the answer) up to this much. */
const DRAIN_BYTES = 64 * 1024 * 1024;

const UNREADABLE = "Bad request: the form could not be read.";

function plain(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

const badRequest = (message: string) => plain(400, `Bad request: ${message}`);

function tooLarge(maxBytes: number): Response {
  const size =
    maxBytes >= 1024 * 1024
      ? `${Math.round(maxBytes / (1024 * 1024))} MB`
      : `${Math.round(maxBytes / 1024)} KB`;
  return plain(413, `Request too large: this form accepts at most ${size}.`);
}

/** Reads and drops what is left of a refused body in the background; cuts the connection past DRAIN_BYTES. */
function drain(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    let dropped = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        dropped += value.byteLength;
        if (dropped > DRAIN_BYTES) return void (await reader.cancel());
      }
    } catch {
      // the client went away
    }
  })();
}

/** The body of `request` as bytes; a 413 as soon as it passes `maxBytes`. */
export async function readBytes(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw plain(400, UNREADABLE);
    }
    if (next.done) break;
    total += next.value.byteLength;
    if (total > maxBytes) {
      drain(reader);
      throw tooLarge(maxBytes);
    }
    chunks.push(next.value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** How many times `needle` occurs in `bytes` (a cheap count before any parse). */
function countOccurrences(bytes: Uint8Array, needle: Uint8Array): number {
  let n = 0;
  const first = needle[0];
  outer: for (
    let i = bytes.indexOf(first);
    i >= 0 && i <= bytes.length - needle.length;
    i = bytes.indexOf(first, i + 1)
  ) {
    for (let j = 1; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    n += 1;
  }
  return n;
}

function tooManyFields(): Response {
  return badRequest("this form has too many fields.");
}

/**
 * Checks field names against the caps; throws a 400 Response on the first that breaks one. Used on the
 * names of a body and on the names inside Conform's `__intent__`.
 */
export function checkFieldNames(names: Iterable<string>, limits: FormLimits = FORM_LIMITS): void {
  const seen = new Map<string, number>();
  const lists = new Map<string, number>();
  let entries = 0;
  let slots = 0;
  for (const name of names) {
    entries += 1;
    if (entries > limits.maxEntries) throw tooManyFields();
    if (name.length > limits.maxNameLength) throw badRequest("a field name is too long.");
    const times = (seen.get(name) ?? 0) + 1;
    seen.set(name, times);
    if (times > limits.maxRepeats)
      throw badRequest(`the field "${name.slice(0, 40)}" is repeated too many times.`);
    if (times > 1) continue;
    for (const m of name.matchAll(/\[(\d+)\]/g)) {
      const index = m[1].length > 6 ? Infinity : Number(m[1]);
      if (index > limits.maxIndex)
        throw badRequest(
          `a list index in "${name.slice(0, 40)}" is too large (at most ${limits.maxIndex}).`,
        );
      const list = name.slice(0, m.index);
      const highest = lists.get(list) ?? -1;
      if (index > highest) {
        slots += index - highest;
        lists.set(list, index);
        if (slots > limits.maxListSlots) throw badRequest("the lists in this form are too long.");
      }
    }
  }
}

export type ReadFormOptions = {
  /** Byte cap of the whole body [FORM_LIMITS.maxBytes]. */
  maxBytes?: number;
  /** Field cap [FORM_LIMITS.maxEntries]. */
  maxEntries?: number;
  /** Where the files of a multipart body go (the photo upload); without it files are kept in memory. */
  uploadHandler?: UploadHandler;
  /** Refuse a form with a control character anywhere (400 `CONTROL_REFUSED`), for a reader without Conform (an API). */
  refuseControl?: boolean;
};

/**
 * The request's form, read within the caps (see the module comment). Throws a plain-text Response:
 * 413 past the byte cap, 400 for anything unreadable or past the other caps. Never a 500.
 */
export async function readFormData(
  request: Request,
  opts: ReadFormOptions = {},
): Promise<FormData> {
  const maxBytes = opts.maxBytes ?? FORM_LIMITS.maxBytes;
  const limits: FormLimits = {
    ...FORM_LIMITS,
    maxEntries: opts.maxEntries ?? FORM_LIMITS.maxEntries,
  };
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > maxBytes) {
    if (request.body) drain(request.body.getReader());
    throw tooLarge(maxBytes);
  }
  const contentType = request.headers.get("Content-Type") ?? "";
  const type = contentType.split(";")[0].trim().toLowerCase();
  let form: FormData;
  if (type === "application/x-www-form-urlencoded") {
    const bytes = await readBytes(request, maxBytes);
    if (countOccurrences(bytes, new Uint8Array([0x26])) >= limits.maxEntries) throw tooManyFields();
    form = new FormData();
    for (const [k, v] of new URLSearchParams(new TextDecoder().decode(bytes))) form.append(k, v);
  } else if (type === "multipart/form-data") {
    form = opts.uploadHandler
      ? await readMultipartStreaming(request, maxBytes, limits, opts.uploadHandler)
      : await readMultipartInMemory(request, contentType, maxBytes, limits);
  } else {
    throw plain(400, UNREADABLE);
  }
  checkFieldNames(form.keys(), limits);
  const clean = withoutControl(form);
  if (opts.refuseControl && clean !== form) throw plain(400, CONTROL_REFUSED);
  return clean;
}

// ---------------------------------------------------------------------------------------------------------
// Control characters

/** The form's refusal when a field held a control character (it was taken out; the rest of the input is kept). */
export const CONTROL_REFUSED =
  "The form held an invisible control character, which cannot be saved: it was taken out. Check the text and send it again.";
/** The message on each field that held one. */
export const CONTROL_FIELD_REFUSED = CONTROL_CHARACTERS_MESSAGE;

const CONTROL = new RegExp(CONTROL_CHARACTER.source, "g");
const fieldsWithControl = new WeakMap<FormData, string[]>();

/**
 * The form without a control character in any value, file name or field name (a copy when there was one); the
 * names of the fields that held one are kept for `controlFields`.
 */
export function withoutControl(form: FormData): FormData {
  const found: string[] = [];
  const clean = new FormData();
  for (const [rawName, value] of form) {
    const name = rawName.replace(CONTROL, "");
    let had = name !== rawName;
    if (typeof value === "string") {
      const text = value.replace(CONTROL, "");
      had ||= text !== value;
      clean.append(name, text);
    } else {
      const fileName = value.name.replace(CONTROL, "");
      had ||= fileName !== value.name;
      clean.append(
        name,
        fileName === value.name
          ? value
          : new File([value], fileName, { type: value.type, lastModified: value.lastModified }),
      );
    }
    if (had && !found.includes(name)) found.push(name);
  }
  if (found.length === 0) return form;
  fieldsWithControl.set(clean, found);
  return clean;
}

/** The fields of a form read by `readFormData` that held a control character (taken out), in order; empty when none did. */
export function controlFields(form: FormData): readonly string[] {
  return fieldsWithControl.get(form) ?? [];
}

async function readMultipartInMemory(
  request: Request,
  contentType: string,
  maxBytes: number,
  limits: FormLimits,
): Promise<FormData> {
  const bytes = await readBytes(request, maxBytes);
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  if (!boundary) throw plain(400, UNREADABLE);
  const parts =
    countOccurrences(bytes, new TextEncoder().encode(`--${boundary[1] ?? boundary[2]}`)) - 1;
  if (parts > limits.maxEntries) throw tooManyFields();
  try {
    return await new Response(bytes, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    throw plain(400, UNREADABLE);
  }
}

class Refused extends Error {
  constructor(readonly response: Response) {
    super(response.statusText);
  }
}

/** Multipart with files, streamed part by part to `uploadHandler`, within the byte and part caps. */
async function readMultipartStreaming(
  request: Request,
  maxBytes: number,
  limits: FormLimits,
  uploadHandler: UploadHandler,
): Promise<FormData> {
  const source = request.body?.getReader();
  let total = 0;
  let draining = false;
  const stop = () => {
    if (source && !draining) drain(source);
    draining = true;
  };
  const capped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await source!.read();
      if (next.done) return controller.close();
      total += next.value.byteLength;
      if (total > maxBytes) {
        stop();
        return controller.error(new Refused(tooLarge(maxBytes)));
      }
      controller.enqueue(next.value);
    },
  });
  let parts = 0;
  try {
    return await unstable_parseMultipartFormData(
      new Request(request.url, {
        method: "POST",
        headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
        body: source ? capped : null,
        duplex: "half",
      } as RequestInit),
      async (part) => {
        parts += 1;
        if (parts > limits.maxEntries) throw new Refused(tooManyFields());
        return uploadHandler(part);
      },
    );
  } catch (e) {
    stop();
    if (e instanceof Refused) throw e.response;
    if (e instanceof MaxPartSizeExceededError) throw tooLarge(maxBytes);
    throw plain(400, UNREADABLE);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Conform's reserved fields

const INTENT = "__intent__";
const STATE = "__state__";

const fieldName = z.string().max(FORM_LIMITS.maxNameLength);
const listIndex = z.number().int().min(0).max(FORM_LIMITS.maxIndex);
/** A value Conform puts in an intent (an insert's default row, an update's value): plain, a few levels deep. */
const flatValue = z.union([z.string(), z.null(), z.array(z.string()).max(FORM_LIMITS.maxRepeats)]);
const intentValue = z.union([flatValue, z.record(fieldName, flatValue)]);

/** What Conform's buttons write in `__intent__` (@conform-to/dom's intents), names and indices within the caps. */
const IntentSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("validate"), payload: z.object({ name: fieldName.optional() }) }),
  z.object({
    type: z.literal("update"),
    payload: z.object({
      name: fieldName.optional(),
      index: listIndex.optional(),
      value: intentValue.optional(),
    }),
  }),
  z.object({
    type: z.literal("reset"),
    payload: z.object({ name: fieldName.optional(), index: listIndex.optional() }),
  }),
  z.object({
    type: z.literal("insert"),
    payload: z.object({
      name: fieldName,
      index: listIndex.optional(),
      defaultValue: intentValue.optional(),
    }),
  }),
  z.object({ type: z.literal("remove"), payload: z.object({ name: fieldName, index: listIndex }) }),
  z.object({
    type: z.literal("reorder"),
    payload: z.object({ name: fieldName, from: listIndex, to: listIndex }),
  }),
]);

/** Conform's `__state__`: which fields were validated. */
const StateSchema = z.object({ validated: z.record(fieldName, z.boolean()) });

function reserved<T>(formData: FormData, name: string, schema: z.ZodType<T>): T | null {
  const all = formData.getAll(name);
  if (all.length === 0) return null;
  const raw = all[0];
  if (all.length > 1 || typeof raw !== "string")
    throw badRequest(`"${name}" is reserved and was sent wrong.`);
  if (raw === "") return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw badRequest(`"${name}" is reserved and was sent wrong.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw badRequest(`"${name}" is reserved and was sent wrong.`);
  return parsed.data;
}

/**
 * Conform's `parseWithZod` for actions: a malformed `__intent__` or `__state__`, or a list intent aimed at a
 * field that is not a list, is a 400 Response instead of an exception (a 500).
 */
/**
 * What a form refused for a control character (parseSubmission) would have parsed to with it taken out, or
 * null: for a wizard that keeps what the user sent while it shows the refusal. Only after parseSubmission,
 * which checks the reserved fields.
 */
export function valueWithoutControl<Schema extends ZodTypeAny>(
  formData: FormData,
  options: { schema: Schema },
): output<Schema> | null {
  if (controlFields(formData).length === 0) return null;
  const submission = parseWithZod(formData, options);
  return submission.status === "success" ? submission.value : null;
}

export function parseSubmission<Schema extends ZodTypeAny>(
  formData: FormData,
  options: { schema: Schema },
): Submission<input<Schema>, string[], output<Schema>> {
  const intent = reserved(formData, INTENT, IntentSchema);
  if (intent) {
    const p = intent.payload as { name?: string; index?: number };
    if (p.name !== undefined)
      checkFieldNames([p.index === undefined ? p.name : `${p.name}[${p.index}]`]);
    formData.set(INTENT, JSON.stringify(intent));
  }
  const state = reserved(formData, STATE, StateSchema);
  if (state) formData.set(STATE, JSON.stringify(state));
  try {
    const submission = parseWithZod(formData, options);
    const withControl = controlFields(formData);
    if (withControl.length === 0) return submission;
    const error: Record<string, string[] | null> = {
      ...(submission.status === "error" ? submission.error : {}),
    };
    error[""] = [CONTROL_REFUSED, ...(error[""] ?? [])];
    for (const name of withControl)
      if (name && name !== INTENT && name !== STATE) error[name] = [CONTROL_FIELD_REFUSED];
    return parse<output<Schema>, string[]>(formData, { resolve: () => ({ error }) }) as Submission<
      input<Schema>,
      string[],
      output<Schema>
    >;
  } catch (e) {
    // Conform's own refusals (an insert into a field that holds text, a name it cannot read).
    console.warn(
      "[form] Conform could not parse a submission:",
      e instanceof Error ? e.message : e,
    );
    throw badRequest("the form could not be read.");
  }
}

/**
 * A refusal in Conform's reply shape, for an action that refuses before it parses a form (an unknown intent,
 * a page state that allows no form, a body over its cap): `useForm({ lastResult })` shows it as the form's
 * errors, or as the errors of the field `name`. After a parse, answer with `submission.reply({ formErrors })`.
 */
export function formError(message: string, name = ""): SubmissionResult<string[]> {
  return { status: "error", error: { [name]: [message] } };
}

/** Refusals by field name ("" for the form's) in Conform's reply shape, for an action whose checks gave messages. */
export function errorsReply(errors: Record<string, string>): SubmissionResult<string[]> {
  return {
    status: "error",
    error: Object.fromEntries(Object.entries(errors).map(([name, message]) => [name, [message]])),
  };
}
