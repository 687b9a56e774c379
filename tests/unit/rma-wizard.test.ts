/**
 * The RMA wizard's draft and its steps' checks (app/routes/create-rma.($id).server.ts): the draft is read from
 * the step forms leniently, and each step's Zod schema answers one message per field by the form's names.
 */
import { describe, expect, it } from "vitest";
import type { OrderLineView } from "../../db/queries/order-views/order-detail";
import { PICTURE_REQUIRED } from "../../domain/messages";
import { RMA_REASON_OTHER } from "../../domain/reasons";
import { draftSchema, firstIncomplete, stepErrors } from "../../app/routes/create-rma.($id).server";
import { parseSubmission } from "../../app/utils/form.server";
import { RMA_WIZARD_MESSAGES } from "../../app/utils/rma.server";

const lines = [
  { contributionId: 11, quantity: 2 },
  { contributionId: 12, quantity: 1 },
] as OrderLineView[];

function draft(fields: Record<string, string | string[]>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields))
    for (const x of Array.isArray(v) ? v : [v]) form.append(k, x);
  const s = parseSubmission(form, { schema: draftSchema(lines) });
  if (s.status !== "success") throw new Error("the draft is never refused");
  return s.value;
}

const PIC = "01234567-89ab-cdef-0123-456789abcdef.jpg";

describe("RMA wizard", () => {
  it("reads the draft leniently", () => {
    const d = draft({
      "q.11": "1",
      "r.11": "2",
      "q.12": "x",
      "p.11": [PIC, "../etc/passwd"],
      contact_name: "  Ann  ",
    });
    expect(d.lines[11]).toMatchObject({ quantity: 1, reason: 2, other: "" });
    expect(d.lines[12]).toMatchObject({ quantity: -1, reason: null });
    expect(d.contact.contact_name).toBe("Ann");
    expect(d.contact.contact_email).toBe("");
  });

  it("checks units: one message per line, then 'at least one unit'", () => {
    expect(stepErrors("units", draft({}), lines)).toEqual({ "": [RMA_WIZARD_MESSAGES.noUnits] });
    expect(stepErrors("units", draft({ "q.11": "3", "q.12": "1" }), lines)).toEqual({
      "q.11": [RMA_WIZARD_MESSAGES.tooMany],
      "r.12": [RMA_WIZARD_MESSAGES.reason],
    });
    expect(
      stepErrors("units", draft({ "q.11": "1", "r.11": String(RMA_REASON_OTHER) }), lines),
    ).toEqual({
      "o.11": [RMA_WIZARD_MESSAGES.other],
    });
    expect(
      stepErrors(
        "units",
        draft({ "q.11": "1", "r.11": String(RMA_REASON_OTHER), "o.11": "too small" }),
        lines,
      ),
    ).toEqual({});
  });

  it("asks pictures for the reasons that need them, then the contact", () => {
    const units = { "q.11": "1", "r.11": "0" };
    expect(stepErrors("pictures", draft(units), lines)).toEqual({ "p.11": [PICTURE_REQUIRED] });
    expect(firstIncomplete(draft(units), lines)).toBe("pictures");
    const withPictures = { ...units, "p.11": [PIC, PIC.replace("0", "1"), PIC.replace("0", "2")] };
    expect(firstIncomplete(draft(withPictures), lines)).toBe("contact");
    expect(
      stepErrors("contact", draft({ ...withPictures, contact_email: "nope" }), lines),
    ).toMatchObject({
      contact_name: [RMA_WIZARD_MESSAGES.contact],
      contact_email: [RMA_WIZARD_MESSAGES.email],
    });
    const contact = {
      contact_name: "Ann",
      contact_email: "ann@example.com",
      contact_phone: "555",
      packing_slip_name: "Ann",
    };
    expect(firstIncomplete(draft({ ...withPictures, ...contact }), lines)).toBe("confirm");
  });
});
