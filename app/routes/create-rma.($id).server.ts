/**
 * Server half of the RMA wizard, /create-rma/:id (docs/product/screens.md, "RMA wizard"; docs/product/orders.md
 * for what the RMA then does): the loader's data and the action over its four steps. Every step form carries
 * the whole draft (no JavaScript needed: app/utils/rma-draft.ts names its fields); the action reads it
 * through `parseSubmission` with `draftSchema`, checks the step with that step's Zod schema and answers with
 * Conform's reply beside the step to show.
 */
import { type SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import {
  getOrderDetail,
  type OrderDetail,
  type OrderLineView,
} from "../../db/queries/order-views/order-detail";
import { STORED_PHOTO_NAME } from "../../domain/listing-forms";
import { PICTURE_REQUIRED, RMA_COMPLETE_QUERY } from "../../domain/messages";
import {
  isChoice,
  RMA_MAX_PICTURES_PER_ITEM,
  RMA_REASON_OTHER,
  RMA_REASONS,
  rmaReasonNeedsPictures,
} from "../../domain/reasons";
import { RMA_STEPS, type RmaDraft, type RmaStepData, type RmaStepName } from "~/utils/rma-draft";
import { requireTradingRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import {
  formError,
  controlFields,
  parseSubmission,
  readFormData,
  valueWithoutControl,
} from "~/utils/form.server";
import {
  draftAmount,
  readPicturesForm,
  receivedLines,
  rmaEligibility,
  RMA_WIZARD_MESSAGES,
  storeLinePictures,
  submitRma,
} from "~/utils/rma.server";
import { photoUrl } from "~/utils/uploads.server";

async function load(request: Request, idRaw: string | undefined) {
  const auth = await requireTradingRetailer(request);
  if (!idRaw || !/^\d{1,9}$/.test(idRaw)) throw new Response("Not found", { status: 404 });
  const order = await getOrderDetail(db, Number(idRaw), {
    retailerId: auth.retailer.id,
    isStaff: false,
  });
  if (!order || !order.role || order.transactionType === 3)
    throw new Response("Not found", { status: 404 });
  return { auth, order, lines: receivedLines(order) };
}

function emptyDraft(lines: OrderLineView[]): RmaDraft {
  return {
    lines: Object.fromEntries(
      lines.map((l) => [l.contributionId, { quantity: 0, reason: null, other: "", pictures: [] }]),
    ),
    contact: { contact_name: "", contact_email: "", contact_phone: "", packing_slip_name: "" },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The draft and the steps' checks

/** A posted value as text: the first of repeated values, trimmed and cut to `max`; anything else is empty. */
const text = (max: number) =>
  z.unknown().transform((v) => {
    const first = Array.isArray(v) ? v[0] : v;
    return typeof first === "string" ? first.trim().slice(0, max) : "";
  });
const perLine = z.record(z.unknown()).catch({}).default({});

/**
 * The draft a step form carries (Conform reads `q.<line>` as `q: { <line>: … }`). Lenient: malformed values
 * read as empty (units -1 when not a whole number), so the step's checks report them; never refuses.
 */
export function draftSchema(lines: OrderLineView[]) {
  return z
    .object({
      q: perLine,
      r: perLine,
      o: perLine,
      p: perLine,
      contact_name: text(200),
      contact_email: text(200),
      contact_phone: text(40),
      packing_slip_name: text(200),
    })
    .transform(({ q, r, o, p, ...contact }): RmaDraft => {
      const out: RmaDraft = { lines: {}, contact };
      for (const l of lines) {
        const id = l.contributionId;
        const units = text(6).parse(q[id]);
        const reason = text(3).parse(r[id]);
        const sent = p[id];
        out.lines[id] = {
          quantity: /^\d{1,4}$/.test(units) ? Number(units) : units === "" ? 0 : -1,
          reason: /^\d{1,2}$/.test(reason) ? Number(reason) : null,
          other: text(500).parse(o[id]),
          pictures: (Array.isArray(sent) ? sent : [sent])
            .filter((v): v is string => typeof v === "string" && STORED_PHOTO_NAME.test(v))
            .slice(0, RMA_MAX_PICTURES_PER_ITEM),
        };
      }
      return out;
    });
}

const draftOf = z.custom<RmaDraft>();
const chosen = (d: RmaDraft) => Object.entries(d.lines).filter(([, l]) => l.quantity > 0);

/** Select Unit(s): units within what was received, a reason from the list for each chosen line, its text for "Other"; at least one unit. */
export function unitsSchema(lines: OrderLineView[]) {
  return draftOf.superRefine((d, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    let refused = false;
    for (const l of lines) {
      const x = d.lines[l.contributionId];
      if (!x) continue;
      const id = l.contributionId;
      // One error per line: its units, else its reason, else the reason's text.
      if (x.quantity < 0 || x.quantity > l.quantity) issue(`q.${id}`, RMA_WIZARD_MESSAGES.tooMany);
      else if (x.quantity > 0 && (x.reason === null || !isChoice(RMA_REASONS, x.reason)))
        issue(`r.${id}`, RMA_WIZARD_MESSAGES.reason);
      else if (x.quantity > 0 && x.reason === RMA_REASON_OTHER && !x.other)
        issue(`o.${id}`, RMA_WIZARD_MESSAGES.other);
      else continue;
      refused = true;
    }
    if (!refused && chosen(d).length === 0) issue("", RMA_WIZARD_MESSAGES.noUnits);
  });
}

/** Pictures: three for the reasons that need them ('* picture required'). */
export const picturesSchema = draftOf.superRefine((d, ctx) => {
  for (const [id, l] of chosen(d)) {
    if (
      l.reason !== null &&
      rmaReasonNeedsPictures(l.reason) &&
      l.pictures.length < RMA_MAX_PICTURES_PER_ITEM
    ) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [`p.${id}`], message: PICTURE_REQUIRED });
    }
  }
});

/** Contact Info: all four fields, a valid e-mail. */
export const contactSchema = z.object({
  contact: z.object({
    contact_name: z.string().min(1, RMA_WIZARD_MESSAGES.contact),
    contact_email: z.string().min(1, RMA_WIZARD_MESSAGES.contact).email(RMA_WIZARD_MESSAGES.email),
    contact_phone: z.string().min(1, RMA_WIZARD_MESSAGES.contact),
    packing_slip_name: z.string().min(1, RMA_WIZARD_MESSAGES.contact),
  }),
});

/** A step's check of the draft: its errors by field name ("" for the form), the first one per field; none when it passes. */
export function stepErrors(
  step: Exclude<RmaStepName, "confirm">,
  d: RmaDraft,
  lines: OrderLineView[],
): Record<string, string[]> {
  const schema =
    step === "units" ? unitsSchema(lines) : step === "pictures" ? picturesSchema : contactSchema;
  const checked = schema.safeParse(d);
  const errors: Record<string, string[]> = {};
  if (!checked.success) {
    for (const i of checked.error.issues) {
      const name = String(i.path[i.path.length - 1] ?? "");
      errors[name] ??= [i.message];
    }
  }
  return errors;
}

/** The first step whose answers are not complete (the confirm step when every one is). */
export function firstIncomplete(d: RmaDraft, lines: OrderLineView[]): RmaStepName {
  for (const step of ["units", "pictures", "contact"] as const)
    if (Object.keys(stepErrors(step, d, lines)).length) return step;
  return "confirm";
}

// ---------------------------------------------------------------------------------------------------------
// Loader and action

export async function createRmaLoader(request: Request, id: string | undefined) {
  const { auth, order, lines } = await load(request, id);
  const eligible = await rmaEligibility(order, auth.retailer.id);
  const first: RmaStepData = {
    step: "units",
    draft: emptyDraft(lines),
    amountCents: 0,
    pictureUrls: {},
    result: null,
  };
  return { order, lines, eligible, first };
}

function answer(
  order: OrderDetail,
  lines: OrderLineView[],
  step: RmaStepName,
  draft: RmaDraft,
  result: SubmissionResult<string[]> | null,
  status = 200,
) {
  const pictureUrls = Object.fromEntries(
    Object.values(draft.lines).flatMap((l) => l.pictures.map((p) => [p, photoUrl(p)])),
  );
  return data<RmaStepData>(
    { step, draft, amountCents: draftAmount(order, lines, draft), pictureUrls, result },
    { status },
  );
}

/** Where the wizard's form goes: the step it was sent from, and the step a Back button asks for. */
const MoveSchema = z.object({ step: z.string().default(""), back: z.string().default("") });

export async function createRmaAction(request: Request, id: string | undefined) {
  const { auth, order, lines } = await load(request, id);
  const eligible = await rmaEligibility(order, auth.retailer.id);
  if (!eligible.ok)
    return answer(order, lines, "units", emptyDraft(lines), formError(eligible.message), 409);
  const multipart = (request.headers.get("Content-Type") ?? "")
    .toLowerCase()
    .startsWith("multipart/form-data");
  const form = multipart ? await readPicturesForm(request) : await readFormData(request);
  const move = parseSubmission(form, { schema: MoveSchema });
  const { step, back } = move.status === "success" ? move.value : { step: "", back: "" };
  const submission = parseSubmission(form, { schema: draftSchema(lines) });
  // A field held a control character (taken out when read): the draft as sent without it, refused on its step.
  const heldControl = controlFields(form).length > 0;
  const draft =
    submission.status === "success"
      ? submission.value
      : (valueWithoutControl(form, { schema: draftSchema(lines) }) ?? emptyDraft(lines));
  const show = (to: RmaStepName, errors: Record<string, string[]> = {}, status?: number) =>
    answer(
      order,
      lines,
      to,
      draft,
      submission.reply({ fieldErrors: errors }),
      status ?? (Object.keys(errors).length ? 400 : 200),
    );
  if (heldControl) {
    const at = (RMA_STEPS as readonly string[]).includes(step) ? (step as RmaStepName) : "units";
    return answer(order, lines, at, draft, submission.reply(), 400);
  }
  if ((RMA_STEPS as readonly string[]).includes(back)) return show(back as RmaStepName);
  switch (step) {
    case "units": {
      const errors = stepErrors("units", draft, lines);
      return Object.keys(errors).length ? show("units", errors) : show("pictures");
    }
    case "pictures": {
      if (firstIncomplete(draft, lines) === "units")
        return show("units", stepErrors("units", draft, lines));
      const stored = await storeLinePictures(form, draft, auth.user.id);
      if (Object.keys(stored).length)
        return show(
          "pictures",
          Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, [v]])),
        );
      if (form.get("intent") !== "continue") return show("pictures");
      const errors = stepErrors("pictures", draft, lines);
      return Object.keys(errors).length ? show("pictures", errors) : show("contact");
    }
    case "contact": {
      const errors = stepErrors("contact", draft, lines);
      return Object.keys(errors).length
        ? show("contact", errors)
        : show(firstIncomplete(draft, lines));
    }
    case "confirm": {
      const first = firstIncomplete(draft, lines);
      if (first !== "confirm") return show(first, stepErrors(first, draft, lines), 400);
      const sent = await submitRma(order, draft, auth.retailer.id, auth.user.id);
      if (!sent.ok) return show("confirm", { "": [sent.message] }, sent.status);
      // Staff acting as the retailer go back to their hub (docs/product/screens.md, "RMA wizard").
      throw redirect(`${auth.user.isStaff ? "/admin" : "/"}?${RMA_COMPLETE_QUERY}`, 303);
    }
    default:
      return show("units", { "": ["Unknown step."] }, 400);
  }
}
