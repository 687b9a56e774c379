/** The webhook inbox's back-off (domain/webhook-inbox.ts; docs/decisions/0042-webhook-inbox.md). */
import { describe, expect, it } from "vitest";
import { INBOX, inboxRetryDelayMs } from "../../../domain/webhook-inbox";

describe("inboxRetryDelayMs: the wait after n failed attempts", () => {
  it.each([
    [1, 5_000],
    [2, 10_000],
    [3, 20_000],
    [4, 40_000],
    [5, 80_000],
    [6, 160_000],
    [7, 300_000],
    [8, 300_000],
    [50, 300_000],
    [5_000, 300_000],
    // Not a count of failures (a relay never passes these): the first delay.
    [0, 5_000],
    [-3, 5_000],
    [2.7, 10_000],
  ])("after %d: %d ms", (attempts, ms) => {
    expect(inboxRetryDelayMs(attempts)).toBe(ms);
  });

  it("never gives up and never waits past the cap; the hold and the sweep come before the first retry", () => {
    for (let n = 1; n < 2_000; n++)
      expect(inboxRetryDelayMs(n)).toBeLessThanOrEqual(INBOX.retryMaxMs);
    expect(INBOX.sweepMs).toBeLessThan(INBOX.holdMs);
    // A relay's lease outlasts one signal by far and is shorter than the longest back-off.
    expect(INBOX.leaseMs).toBeLessThan(INBOX.retryMaxMs);
  });
});
