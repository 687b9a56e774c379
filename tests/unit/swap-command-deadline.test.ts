/**
 * A swap click that reads the swap's terms before sending its command (approve, Submit Response, Remove) has
 * one deadline, COMMAND_TIMEOUT_MS, for both (app/utils/swap.server.ts): when the read waited out an outage,
 * the command gets what is left of it (at least 5 s), not another full timeout. The order service is replaced
 * by a stand-in whose query answers when the test says; time is Vitest's fake clock.
 */
import { ServiceError } from "@temporalio/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROVIDER_APPROVE_ORDER } from "./swap-panel";
import { SWAP_STATES } from "../../domain/states";

const state = vi.hoisted(() => ({ viewAt: 0, commandTimeouts: [] as number[] }));

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
    // The view query: the order service cannot be reached until state.viewAt (a worker coming back).
    getTemporalClient: async () => ({
      workflow: {
        getHandle: () => ({
          query: async () => {
            if (Date.now() < state.viewAt)
              throw new ServiceError("unavailable", {
                cause: Object.assign(new Error("unavailable"), { code: 14 }),
              });
            return view;
          },
        }),
      },
    }),
    // The command: what it may wait is what this test checks.
    sendOrderCommand: async (
      _kind: unknown,
      _order: unknown,
      _def: unknown,
      _arg: unknown,
      timeoutMs: number,
    ) => {
      state.commandTimeouts.push(timeoutMs);
      return { ok: true, result: { statename: SWAP_STATES.RECEIVER_APPROVE } };
    },
  };
});

const { handleSwapAction } = await import("../../app/utils/swap.server");
const { COMMAND_TIMEOUT_MS } = await import("../../app/utils/temporal.server");

const order = PROVIDER_APPROVE_ORDER;
const approve = () => {
  const f = new FormData();
  f.set("intent", "approve");
  return f;
};

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2026-03-02T15:00:00Z") });
  state.commandTimeouts = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a swap click's one deadline", () => {
  it("the terms read at once: the command may take the whole timeout", async () => {
    state.viewAt = 0;
    await expect(handleSwapAction(order, approve(), 12)).resolves.toMatchObject({ ok: true });
    expect(state.commandTimeouts).toEqual([COMMAND_TIMEOUT_MS]);
  });

  it("the terms read after 25 s of outage: the command gets the 5 s left, not another 30 s", async () => {
    state.viewAt = Date.now() + 25_000;
    const out = handleSwapAction(order, approve(), 12);
    await vi.advanceTimersByTimeAsync(26_000);
    await expect(out).resolves.toMatchObject({ ok: true });
    expect(state.commandTimeouts).toHaveLength(1);
    expect(state.commandTimeouts[0]).toBeLessThanOrEqual(COMMAND_TIMEOUT_MS - 25_000);
    expect(state.commandTimeouts[0]).toBeGreaterThanOrEqual(4_000);
  });

  it("the terms read just before the deadline: the command still gets 5 s", async () => {
    state.viewAt = Date.now() + 28_500;
    const out = handleSwapAction(order, approve(), 12);
    await vi.advanceTimersByTimeAsync(29_500);
    await expect(out).resolves.toMatchObject({ ok: true });
    expect(state.commandTimeouts).toEqual([5_000]);
  });
});
