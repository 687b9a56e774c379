/**
 * The swap panel's forms parse through parseSubmission (app/utils/swap.server.ts): a decline's and a cancelled
 * shipment's reason from its list, approve's "call it even" box. A refusal is a 400 with its message and
 * Conform's reply; nothing is sent. The order service is a stand-in that records the commands.
 */
import { describe, expect, it, vi } from "vitest";
import { PROVIDER_APPROVE_ORDER } from "./swap-panel";
import { SWAP_STATES } from "../../domain/states";

const sent = vi.hoisted(() => [] as unknown[]);

vi.mock("../../app/utils/db.server", () => ({ db: {} }));
// The panel reads both sides' swap listings to check a raise or an addition; these forms add none.
vi.mock("../../db/queries/swap-orders", async (importOriginal) =>
  (await import("./swap-panel")).withoutSwapChoices(importOriginal),
);
vi.mock("../../app/utils/temporal.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../app/utils/temporal.server")>();
  const view = (await import("./swap-panel")).SWAP_VIEW;
  return {
    ...real,
    getTemporalClient: async () => ({
      workflow: { getHandle: () => ({ query: async () => view }) },
    }),
    sendOrderCommand: async (_kind: unknown, _order: unknown, _def: unknown, arg: unknown) => {
      sent.push(arg);
      return { ok: true, result: { statename: SWAP_STATES.RECEIVER_APPROVE } };
    },
  };
});

const { handleSwapAction } = await import("../../app/utils/swap.server");

const order = PROVIDER_APPROVE_ORDER;
const formOf = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const run = async (fields: Record<string, string>) => {
  sent.length = 0;
  const out = await handleSwapAction(order, formOf(fields), 12);
  return { out, sent: [...sent] };
};

describe("a swap's reason forms", () => {
  it.each([
    ["decline", {}],
    ["decline", { reason: "" }],
    ["decline", { reason: "abc" }],
    ["decline", { reason: "50" }],
    ["cancel_shipment", { reason: "60" }],
    ["cancel_shipment", { reason: "50.5" }],
  ])("%s with %o: 'Please choose a reason.' (400), nothing sent", async (intent, fields) => {
    const { out, sent } = await run({ intent, ...fields });
    expect(out).toMatchObject({
      ok: false,
      status: 400,
      code: "invalid",
      message: "Please choose a reason.",
    });
    expect(out.ok ? null : "reply" in out ? out.reply?.status : null).toBe("error");
    expect(sent).toEqual([]);
  });

  it.each([
    ["decline", "61", 61],
    ["cancel_shipment", "52", 52],
  ])("%s with reason %s sends it as a number", async (intent, reason, code) => {
    const { out, sent } = await run({ intent, reason });
    expect(out).toMatchObject({ ok: true });
    expect(sent).toEqual([{ actorRetailerId: 12, reason: code }]);
  });
});

describe("approve's call it even", () => {
  it.each([
    [{ call_it_even: "on" }, true],
    [{}, false],
    [{ call_it_even: "" }, false],
    [{ call_it_even: "yes" }, false],
  ])("%o: callItEven %s", async (fields, callItEven) => {
    const { out, sent } = await run({ intent: "approve", ...fields });
    expect(out).toMatchObject({ ok: true });
    expect(sent).toEqual([{ actorRetailerId: 12, callItEven }]);
  });
});
