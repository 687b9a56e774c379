/**
 * The order pages' command plumbing (app/utils/temporal.server.ts sendOrderCommand) and forms (app/components/orders/schemas.ts):
 * a rejected Temporal update becomes the specification's message with a 4xx (never a 500), a finished
 * workflow reads as wrong_state, the card step accepts only the provider's test cards and keeps only the
 * type and last four, and the reason / rating / units forms validate as the workflow does. One click's update is
 * sent again, under the same update id, while the order service cannot be reached, and under a new id while the
 * workflow refuses it from behind the order's read model.
 */
import {
  ApplicationFailure,
  ServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type WorkflowHandle,
} from "@temporalio/client";
import { defineUpdate } from "@temporalio/workflow";
import { describe, expect, it } from "vitest";
import {
  CARD_DECLINED,
  CANCEL_REASON_REQUIRED,
  DECLINE_REASON_REQUIRED,
  TOTAL_TOO_HIGH,
} from "../../domain/messages";
import { BUY_ERRORS, type BuyErrorCode } from "../../workflows/buy/contract";
import { paymentMethodFromForm } from "../../app/utils/card-form.server";
import {
  commandErrorStatus,
  commandFailure,
  executeUpdateOnce,
} from "../../app/utils/temporal.server";
import {
  CancelShipmentSchema,
  DeclineCheckoutSchema,
  DeclineModifiedSchema,
  DeclineSaleSchema,
  parseUnitInputs,
  RatingSchema,
} from "../../app/components/orders/schemas";

function rejected(code: string, message: string) {
  return new WorkflowUpdateFailedError(
    "Workflow Update failed",
    ApplicationFailure.create({ type: code, message, nonRetryable: true }),
  );
}

/** A refusal as the order driver makes it: with the workflow's write sequence when it refused. */
function refusedAt(recordSeq: number) {
  return new WorkflowUpdateFailedError(
    "Workflow Update failed",
    ApplicationFailure.create({
      type: "wrong_state",
      message: BUY_ERRORS.wrong_state,
      nonRetryable: true,
      details: [{ recordSeq }],
    }),
  );
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

describe("rejected commands", () => {
  it("map every error code of the contract to a 4xx and its message", () => {
    for (const code of Object.keys(BUY_ERRORS) as BuyErrorCode[]) {
      const s = commandErrorStatus(code);
      expect(s, code).toBeGreaterThanOrEqual(400);
      expect(s, code).toBeLessThan(500);
      const out = commandFailure(rejected(code, BUY_ERRORS[code]));
      expect(out).toEqual({ ok: false, status: s, code, message: BUY_ERRORS[code] });
    }
  });

  it("shows the specification's texts verbatim", () => {
    expect(commandFailure(rejected("total_too_high", TOTAL_TOO_HIGH))).toMatchObject({
      status: 400,
      message: TOTAL_TOO_HIGH,
    });
    expect(commandFailure(rejected("card_declined", CARD_DECLINED))).toMatchObject({
      status: 402,
      message: "Sorry but this card was declined. Please try another.",
    });
    expect(
      commandFailure(rejected("wrong_party", "Only the selling retailer can answer this order.")),
    ).toMatchObject({ status: 403 });
  });

  it("reads a finished workflow as wrong_state (409), and leaves unknown failures to the caller", () => {
    expect(commandFailure(new WorkflowNotFoundError("gone", "buy-order:1", undefined))).toEqual({
      ok: false,
      status: 409,
      code: "wrong_state",
      message: BUY_ERRORS.wrong_state,
    });
    expect(commandFailure(new Error("boom"))).toBeNull();
    expect(commandFailure(rejected("SomethingElse", "x"))).toBeNull();
  });
});

describe("card step", () => {
  it("turns a test card into the provider's token and keeps only the type and last four", () => {
    const ok = paymentMethodFromForm(
      form({ card_number: "4242 4242 4242 4242", card_expiry: "12/40", card_cvc: "123" }),
      new Date("2026-01-01"),
    );
    expect(ok).toEqual({
      ok: true,
      paymentMethod: { paymentMethodId: "tok_visa", lastFour: "4242", description: "Visa" },
    });
    const declined = paymentMethodFromForm(
      form({ card_number: "4000000000000002", card_expiry: "12/40", card_cvc: "123" }),
      new Date("2026-01-01"),
    );
    expect(declined).toMatchObject({
      ok: true,
      paymentMethod: { paymentMethodId: "tok_chargeDeclined", lastFour: "0002" },
    });
  });

  it("refuses other numbers, expired cards and bad Elements ids with a field message", () => {
    expect(
      paymentMethodFromForm(
        form({ card_number: "1234 5678 9012 3456", card_expiry: "12/40", card_cvc: "123" }),
      ),
    ).toMatchObject({
      ok: false,
      errors: { card_number: expect.any(String) },
    });
    expect(
      paymentMethodFromForm(
        form({ card_number: "4242424242424242", card_expiry: "01/20", card_cvc: "123" }),
      ),
    ).toMatchObject({
      ok: false,
      errors: { card_expiry: "This card has expired." },
    });
    expect(paymentMethodFromForm(form({}))).toMatchObject({ ok: false });
    expect(paymentMethodFromForm(form({ payment_method_id: "not-a-pm" }))).toMatchObject({
      ok: false,
    });
    expect(
      paymentMethodFromForm(
        form({ payment_method_id: "pm_card_visa", card_last4: "4242", card_brand: "visa" }),
        new Date(),
        "stripe",
      ),
    ).toEqual({
      ok: true,
      paymentMethod: { paymentMethodId: "pm_card_visa", lastFour: "4242", description: "Visa" },
    });
  });
});

describe("forms", () => {
  it("require a decline / cancel reason from the right list", () => {
    expect(DeclineSaleSchema.safeParse({ intent: "decline", reason: "14" })).toMatchObject({
      success: true,
      data: { reason: 14 },
    });
    const noReason = DeclineSaleSchema.safeParse({ intent: "decline", reason: "" });
    expect(noReason.success).toBe(false);
    expect(noReason.error!.issues[0].message).toBe(DECLINE_REASON_REQUIRED);
    expect(
      DeclineCheckoutSchema.safeParse({ intent: "decline_checkout", reason: "2" }).success,
    ).toBe(true);
    expect(
      DeclineCheckoutSchema.safeParse({ intent: "decline_checkout", reason: "30" }).success,
    ).toBe(false);
    expect(
      CancelShipmentSchema.safeParse({ intent: "cancel_shipment" }).error!.issues[0].message,
    ).toBe(CANCEL_REASON_REQUIRED);
    expect(
      CancelShipmentSchema.safeParse({ intent: "cancel_shipment", reason: "14" }).success,
    ).toBe(false);
  });

  it("default a modified purchase's decline reason to 30", () => {
    expect(DeclineModifiedSchema.parse({ intent: "decline_modified" }).reason).toBe(30);
    expect(DeclineModifiedSchema.parse({ intent: "decline_modified", reason: "" }).reason).toBe(30);
    expect(DeclineModifiedSchema.parse({ intent: "decline_modified", reason: "1" }).reason).toBe(1);
    expect(
      DeclineModifiedSchema.safeParse({ intent: "decline_modified", reason: "9" }).success,
    ).toBe(false);
  });

  it("rate four criteria with whole stars 1 to 5", () => {
    const ok = RatingSchema.safeParse({
      intent: "rate",
      condition: "5",
      packaging: "4",
      timeliness: "3",
      overall: "1",
      comments: " thanks ",
    });
    expect(ok).toMatchObject({
      success: true,
      data: { condition: 5, overall: 1, comments: "thanks" },
    });
    for (const bad of ["0", "6", "2.5", "x", ""]) {
      expect(
        RatingSchema.safeParse({
          intent: "rate",
          condition: bad,
          packaging: "4",
          timeliness: "3",
          overall: "1",
        }).success,
        bad,
      ).toBe(false);
    }
    expect(
      RatingSchema.safeParse({ intent: "rate", condition: "5", packaging: "4", timeliness: "3" })
        .success,
    ).toBe(false);
  });

  it("read the seller's unit inputs as whole numbers only", () => {
    const p = parseUnitInputs(
      form({ intent: "respond", "units.7.M": "2", "units.7.L": "0", "units.9.S": "1" }),
    );
    expect(p.ok && [...p.units.entries()]).toEqual([
      [7, { M: 2, L: 0 }],
      [9, { S: 1 }],
    ]);
    expect(parseUnitInputs(form({ "units.7.M": "-1" })).ok).toBe(false);
    expect(parseUnitInputs(form({ "units.7.M": "1.5" })).ok).toBe(false);
  });
});

describe("one click's update (executeUpdateOnce)", () => {
  const def = defineUpdate<string, [number]>("testUpdate");
  const unavailable = () =>
    new ServiceError("14 UNAVAILABLE: no worker", {
      cause: Object.assign(new Error("unavailable"), { code: 14 }),
    });
  /** A handle whose executeUpdate answers with `answers` in turn, recording each call's update id. */
  function handleAnswering(answers: (() => Promise<string>)[]) {
    const ids: (string | undefined)[] = [];
    const handle = {
      executeUpdate: (_def: unknown, opts: { args: [number]; updateId?: string }) => {
        ids.push(opts.updateId);
        return answers[Math.min(ids.length - 1, answers.length - 1)]();
      },
    };
    return { handle: handle as unknown as WorkflowHandle, ids };
  }

  it("sends it again while the order service cannot be reached, with the same update id, and returns its answer", async () => {
    const { handle, ids } = handleAnswering([
      () => Promise.reject(unavailable()),
      () =>
        Promise.reject(
          new WorkflowUpdateRPCTimeoutOrCancelledError("timed out", {
            cause: new Error("deadline"),
          }),
        ),
      () => Promise.resolve("done"),
    ]);
    expect(await executeUpdateOnce(handle, def, [1], 10_000)).toBe("done");
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends it again, with the same update id, when the server could not admit it because its workflow task failed", async () => {
    // What the server answered in a CI run when the worker's workflow task carrying the update timed out.
    const notAdmitted = () =>
      new ServiceError("Workflow Update failed", {
        cause: Object.assign(
          new Error(
            "9 FAILED_PRECONDITION: Unable to perform workflow execution update due to unexpected workflow task failure.",
          ),
          { code: 9 },
        ),
      });
    const { handle, ids } = handleAnswering([
      () => Promise.reject(notAdmitted()),
      () => Promise.resolve("done"),
    ]);
    expect(await executeUpdateOnce(handle, def, [1], 10_000)).toBe("done");
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });

  it("throws a refusal at once, and gives up when the deadline comes first", async () => {
    const refusal = rejected("wrong_state", BUY_ERRORS.wrong_state);
    const refused = handleAnswering([() => Promise.reject(refusal)]);
    await expect(executeUpdateOnce(refused.handle, def, [1], 10_000)).rejects.toBe(refusal);
    expect(refused.ids).toHaveLength(1);

    const down = handleAnswering([() => Promise.reject(unavailable())]);
    await expect(executeUpdateOnce(down.handle, def, [1], 1_500)).rejects.toBeInstanceOf(
      ServiceError,
    );
    expect(down.ids.length).toBeLessThanOrEqual(2);

    const slow = handleAnswering([() => new Promise<string>(() => {})]);
    expect(await executeUpdateOnce(slow.handle, def, [1], 50)).toBe("timeout");
  });

  it("sends a refusal made behind the read model again, under a new id, until the workflow answers for itself", async () => {
    // The read model is at write 5: the workflow refused at 4 (it has not redone its last step yet), then ran it.
    const late = handleAnswering([
      () => Promise.reject(refusedAt(4)),
      () => Promise.reject(refusedAt(4)),
      () => Promise.resolve("done"),
    ]);
    expect(
      await executeUpdateOnce(late.handle, def, [1], 10_000, { readModelSeq: async () => 5 }),
    ).toBe("done");
    expect(late.ids).toHaveLength(3);
    expect(new Set(late.ids).size).toBe(3);

    // A refusal at (or past) the read model's write is the answer: the order has moved on.
    const moved = refusedAt(5);
    const caughtUp = handleAnswering([() => Promise.reject(moved)]);
    await expect(
      executeUpdateOnce(caughtUp.handle, def, [1], 10_000, { readModelSeq: async () => 5 }),
    ).rejects.toBe(moved);
    expect(caughtUp.ids).toHaveLength(1);

    // Without a read model to compare with (or a sequence in the refusal), a refusal is thrown at once.
    const blind = handleAnswering([() => Promise.reject(refusedAt(4))]);
    await expect(executeUpdateOnce(blind.handle, def, [1], 10_000)).rejects.toBeInstanceOf(
      WorkflowUpdateFailedError,
    );
    const plain = handleAnswering([
      () => Promise.reject(rejected("wrong_state", BUY_ERRORS.wrong_state)),
    ]);
    await expect(
      executeUpdateOnce(plain.handle, def, [1], 10_000, { readModelSeq: async () => 5 }),
    ).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
    expect(plain.ids).toHaveLength(1);

    // Behind until the deadline: the last refusal is thrown.
    const stuck = handleAnswering([() => Promise.reject(refusedAt(4))]);
    await expect(
      executeUpdateOnce(stuck.handle, def, [1], 1_500, { readModelSeq: async () => 5 }),
    ).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
    expect(stuck.ids.length).toBeLessThanOrEqual(2);
  });
});
