import { z } from "zod";
import { normalizeResaleNumber, normalizeUsPhone } from "../accounts";
import { parseDollars } from "../money";
import { text } from "../text";
import { MAX_ROW_ID, rowIdDigits } from "../ids";

/**
 * Staff resources described once (ADR 0020; docs/product/screens.md, "Staff: generic lists and forms"): each
 * entity staff manage is a
 * ResourceDef whose fields carry what the old API's OPTIONS answer carried (name, type, label, help_text,
 * choices, relationship_resource). The generic list and form screens are rendered from them
 * (`widgetFor`, the rendering rules of docs/product/screens.md, "Staff: generic lists and forms") and the server validates with the Zod schema built from the same fields
 * (`schemaFor`). Like Django admin's ModelAdmin (list_display, search_fields, ordering) and react-admin's
 * <Resource> + field components, but as data. Pure: no I/O, no clock (today is passed in).
 */

export type FieldType =
  | "string"
  | "email"
  | "integer"
  | "decimal"
  | "choice"
  | "multiplechoice"
  | "list"
  | "image"
  | "boolean"
  | "datetime"
  /** A relationship: the id of a row of `relationship_resource`. */
  | "field";

export type Choice = { readonly value: string; readonly display_name: string };

export type FieldDef = {
  readonly name: string;
  readonly type: FieldType;
  readonly label: string;
  readonly help_text?: string;
  /** Required on create and edit (a blank value is refused). */
  readonly required?: boolean;
  /** Shown, never written by the form (computed or set elsewhere). */
  readonly read_only?: boolean;
  readonly choices?: readonly Choice[];
  readonly relationship_resource?: string;
  /** Chooser filter: the options of this relationship depend on another field of the form (by its value). */
  readonly filter?: { readonly field: string; readonly param: string };
  /** Extra fixed filters of the chooser (brands: only is_valid). */
  readonly extra_filters?: Readonly<Record<string, string>>;
  readonly max_length?: number;
  readonly min?: number;
  readonly max?: number;
  /** Column of the list screen. */
  readonly list?: boolean;
  /** The list can be sorted by it. */
  readonly sortable?: boolean;
};

export type ResourceDef = {
  /** The class_name of the URL and the key of the permissions map. */
  readonly name: string;
  readonly label: string;
  readonly plural: string;
  readonly fields: readonly FieldDef[];
  /** Placeholder of the search box (what the search looks at). */
  readonly search_help: string;
  /** New rows through the generic form (listings and requests are made by their wizards). */
  readonly can_create: boolean;
  readonly can_delete: boolean;
  /** Has is_active: list rows get activate / deactivate. */
  readonly has_active: boolean;
};

// ---------------------------------------------------------------------------------------------------------
// Generic form field rendering by type

export const PHONE_MASK = "+1-###-###-####";
export const RESALE_MASK = "##-##########-#";
export const POSTAL_MASK = "##### or #####-####";

export type Widget =
  | { kind: "text"; inputType: "text" }
  | { kind: "textarea"; minRows: 3; maxRows: 6 }
  | { kind: "masked"; mask: string; inputType: "tel" | "text"; pattern: string }
  | { kind: "email"; inputType: "email" }
  | { kind: "number"; inputType: "number"; step: "1" | "0.01"; min?: number; max?: number }
  | { kind: "select" }
  | { kind: "stars"; max: 5; step: 1 }
  | { kind: "checkboxes" }
  | { kind: "image" }
  | { kind: "checkbox"; label: string }
  | { kind: "date"; inputType: "date"; min?: string }
  | { kind: "chooser"; resource: string };

/** "sameas" (any case, with or without a space / underscore) is shown as "same as". */
export function checkboxLabel(label: string): string {
  return /^same[\s_-]?as$/i.test(label.trim()) ? "same as" : label;
}

/** The day after `today` (YYYY-MM-DD): the first date an expiry date may take. */
function dayAfter(today: string): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * The widget of a field (docs/product/screens.md, "Staff: generic lists and forms"). `today` (YYYY-MM-DD, the marketplace's day) is needed for
 * expiry_date only: dates up to today are disabled.
 */
export function widgetFor(field: FieldDef, opts: { today?: string } = {}): Widget {
  const name = field.name.toLowerCase();
  switch (field.type) {
    case "string":
      if (name.includes("comments")) return { kind: "textarea", minRows: 3, maxRows: 6 };
      if (name.includes("phone"))
        return {
          kind: "masked",
          mask: PHONE_MASK,
          inputType: "tel",
          pattern: PHONE_PATTERN.source,
        };
      if (name.includes("resale_number"))
        return {
          kind: "masked",
          mask: RESALE_MASK,
          inputType: "text",
          pattern: RESALE_PATTERN.source,
        };
      if (name.includes("postal"))
        return {
          kind: "masked",
          mask: POSTAL_MASK,
          inputType: "text",
          pattern: POSTAL_PATTERN.source,
        };
      return { kind: "text", inputType: "text" };
    case "email":
      return { kind: "email", inputType: "email" };
    case "integer":
      // "fields named rating are not integers": they are star ratings.
      if (name === "rating") return { kind: "stars", max: 5, step: 1 };
      return { kind: "number", inputType: "number", step: "1", min: field.min, max: field.max };
    case "decimal":
      return { kind: "number", inputType: "number", step: "0.01", min: field.min ?? 0 };
    case "choice":
      if (name === "rating") return { kind: "stars", max: 5, step: 1 };
      return { kind: "select" };
    case "multiplechoice":
    case "list":
      return { kind: "checkboxes" };
    case "image":
      return { kind: "image" };
    case "boolean":
      return { kind: "checkbox", label: checkboxLabel(field.label) };
    case "datetime":
      if (name === "expiry_date")
        return {
          kind: "date",
          inputType: "date",
          min: opts.today ? dayAfter(opts.today) : undefined,
        };
      return { kind: "date", inputType: "date" };
    case "field":
      return { kind: "chooser", resource: field.relationship_resource ?? "" };
  }
}

// ---------------------------------------------------------------------------------------------------------
// The Zod schema of a resource, from the same fields

/** What the masks accept as typed (the value is normalised before it is saved). */
export const PHONE_PATTERN = /^[\d\s()+.-]{10,20}$/;
export const RESALE_PATTERN = /^[\d\s-]{13,17}$/;
export const POSTAL_PATTERN = /^\d{5}(-\d{4})?$/;

export const FIELD_MESSAGES = {
  required: "This field is required.",
  tooLong: (n: number) => `At most ${n} characters.`,
  phone: "Enter a US phone number: +1-###-###-####.",
  resale: "Enter the resale number as ##-##########-#.",
  postal: "Enter a ZIP code: ##### or #####-####.",
  email: "Enter a valid e-mail address.",
  integer: "Enter a whole number.",
  decimal: "Enter an amount in dollars, like 12.50.",
  choice: "Choose one of the options.",
  relation: "Choose one from the list.",
  date: "Enter a date as YYYY-MM-DD.",
  formula: "A value may not start with = + - or @ (it would run as a formula in a spreadsheet).",
} as const;

/** Blank form values ("" or missing) as undefined. */
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** Names and labels typed by staff must not read as spreadsheet formulas (CSV injection, ADR 0020). */
const FORMULA_START = /^[=+\-@\t\r]/;

function stringSchema(field: FieldDef): z.ZodTypeAny {
  const max = field.max_length ?? (field.name.includes("comments") ? 2000 : 200);
  const name = field.name.toLowerCase();
  const multiline = name.includes("comments");
  const masked =
    name.includes("phone") || name.includes("resale_number") || name.includes("postal");
  let s: z.ZodTypeAny = text({ multiline }).max(max, FIELD_MESSAGES.tooLong(max));
  // Masked fields are normalised to digits and dashes ("+1-..." is the phone mask itself).
  if (!masked) s = s.refine((v: string) => !FORMULA_START.test(v), FIELD_MESSAGES.formula);
  const normalise = (fn: (v: string) => string | null, message: string) =>
    s.transform((v: string, ctx) => {
      if (v === "") return v;
      const out = fn(v);
      if (out === null) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message });
        return z.NEVER;
      }
      return out;
    });
  if (name.includes("phone")) s = normalise(normalizeUsPhone, FIELD_MESSAGES.phone);
  else if (name.includes("resale_number"))
    s = normalise(normalizeResaleNumber, FIELD_MESSAGES.resale);
  else if (name.includes("postal"))
    s = normalise((v) => (POSTAL_PATTERN.test(v) ? v : null), FIELD_MESSAGES.postal);
  return s;
}

/** The Zod type of one field's submitted value (what the form posts: strings, repeated names for lists). */
export function fieldSchema(field: FieldDef): z.ZodTypeAny {
  const required = field.required === true;
  let inner: z.ZodTypeAny;
  switch (field.type) {
    case "string":
      inner = stringSchema(field);
      break;
    case "email":
      inner = z
        .string()
        .trim()
        .max(254, FIELD_MESSAGES.tooLong(254))
        .email(FIELD_MESSAGES.email)
        .toLowerCase();
      break;
    case "integer":
      inner = z
        .string()
        .trim()
        .regex(/^-?\d{1,9}$/, FIELD_MESSAGES.integer)
        .transform(Number)
        .pipe(
          z
            .number()
            .int()
            .min(field.min ?? -MAX_ROW_ID, `At least ${field.min}.`)
            .max(field.max ?? MAX_ROW_ID, `At most ${field.max}.`),
        );
      break;
    case "decimal":
      inner = z.string().transform((v, ctx) => {
        const cents = parseDollars(v);
        if (cents === null) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: FIELD_MESSAGES.decimal });
          return z.NEVER;
        }
        return cents;
      });
      break;
    case "choice": {
      const values = (field.choices ?? []).map((c) => c.value);
      inner = z.string().refine((v) => values.includes(v), FIELD_MESSAGES.choice);
      break;
    }
    case "multiplechoice":
    case "list": {
      const values = (field.choices ?? []).map((c) => c.value);
      // Checkbox groups: nothing checked posts nothing, so the list defaults to empty.
      return z.preprocess(
        (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
        z
          .array(z.string().refine((v) => values.includes(v), FIELD_MESSAGES.choice))
          .max(values.length),
      );
    }
    case "boolean":
      // A checkbox posts "on" (or its value) when checked and nothing when not.
      return z.preprocess(
        (v) => v !== undefined && v !== "" && v !== "false" && v !== "off",
        z.boolean(),
      );
    case "datetime":
      inner = z
        .string()
        .trim()
        .regex(/^\d{4}-\d{2}-\d{2}$/, FIELD_MESSAGES.date)
        .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), FIELD_MESSAGES.date);
      break;
    case "field":
      inner = rowIdDigits(FIELD_MESSAGES.relation);
      break;
    case "image":
      // Images are uploaded by their own screens (variation editor, collection uploads), never by this form.
      return z.any().transform(() => undefined);
  }
  if (required)
    return z.preprocess(
      blank,
      z
        .string({
          required_error: FIELD_MESSAGES.required,
          invalid_type_error: FIELD_MESSAGES.required,
        })
        .pipe(inner),
    );
  return z.preprocess(
    blank,
    z.union([z.undefined(), z.string().pipe(inner)]).transform((v) => (v === undefined ? null : v)),
  );
}

/** The fields a form writes (not read-only, not images). */
export function writableFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => !f.read_only && f.type !== "image");
}

/** The Zod schema of a resource's form: one key per writable field, by its name. */
export function schemaFor(def: ResourceDef) {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const f of writableFields(def)) shape[f.name] = fieldSchema(f);
  return z.object(shape);
}

export type ResourceValues = Record<string, string | number | boolean | string[] | null>;

/**
 * A cell of an exported CSV: text that a spreadsheet would run as a formula (= + - @, tab, CR at the
 * start) gets a leading apostrophe (OWASP's advice); plain numbers (-12.50) stay numbers.
 */
export function neutraliseCsvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const s = Array.isArray(value) ? value.join("; ") : String(value);
  if (/^-?\d+(\.\d+)?$/.test(s)) return s;
  return FORMULA_START.test(s) ? `'${s}` : s;
}

/**
 * The masks as the user types: digits are laid into the mask's # slots ("+1-" is typed for you).
 * Postal: ##### then, past five digits, #####-####.
 */
export function applyMask(mask: string, typed: string): string {
  if (mask === POSTAL_MASK) {
    const d = typed.replace(/\D/g, "").slice(0, 9);
    return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d;
  }
  // The "+1-" the mask wrote is not part of what was typed.
  let digits = (mask === PHONE_MASK ? typed.replace(/^\s*\+1(?:-|\s|$)/, "") : typed).replace(
    /\D/g,
    "",
  );
  if (mask === PHONE_MASK && digits.length > 10 && digits.startsWith("1")) digits = digits.slice(1);
  if (mask === PHONE_MASK && digits.length === 0) return "";
  let out = "";
  let i = 0;
  for (const ch of mask === PHONE_MASK ? mask.slice(3) : mask) {
    if (i >= digits.length) break;
    if (ch === "#") out += digits[i++];
    else out += ch;
  }
  return mask === PHONE_MASK ? `+1-${out}` : out;
}

/** The add-variation modal (option (color), value and price are required). */
export const AddVariationSchema = z.object({
  product_id: z.coerce
    .number({ invalid_type_error: FIELD_MESSAGES.relation })
    .int()
    .positive()
    .max(MAX_ROW_ID),
  option: text({ required_error: FIELD_MESSAGES.required })
    .min(1, FIELD_MESSAGES.required)
    .max(40, FIELD_MESSAGES.tooLong(40)),
  value: text({ required_error: FIELD_MESSAGES.required })
    .min(1, FIELD_MESSAGES.required)
    .max(80, FIELD_MESSAGES.tooLong(80))
    .refine((v) => !FORMULA_START.test(v), FIELD_MESSAGES.formula),
  price: z
    .string({ required_error: FIELD_MESSAGES.required })
    .min(1, FIELD_MESSAGES.required)
    .pipe(fieldSchema({ name: "price", type: "decimal", label: "Price" })),
});
