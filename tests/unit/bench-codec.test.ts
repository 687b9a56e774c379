/**
 * npm run bench:orders -- --prod --codec on|off|both (scripts/bench-orders/options.mjs, codec.mjs): which runs
 * take the switch, which block each writes, and the comparison's difference row.
 */
import { describe, expect, it } from "vitest";
import { codecText } from "../../scripts/bench-orders/codec.mjs";
import { commandLine, options } from "../../scripts/bench-orders/options.mjs";

describe("--codec", () => {
  it("is on by default; off and both need --prod and purchases; both writes orders-codec, off alone nothing", () => {
    expect(options(["--prod"])).toMatchObject({ codec: "on", block: "orders-prod", write: true });
    const both = options(["--prod", "--codec", "both", "--orders", "4"]);
    expect(both).toMatchObject({ codec: "both", block: "orders-codec", write: true });
    expect(commandLine(both)).toBe(
      "npm run bench:orders -- --prod --codec both --orders 4 --concurrency 4",
    );
    expect(options(["--prod", "--codec=off"])).toMatchObject({ block: null, write: false });
    for (const [argv, refusal] of [
      [["--codec", "off"], /use it with --prod/],
      [["--prod", "--codec", "both", "--swaps"], /not with --swaps, --mix or --kill-worker-every/],
      [["--prod", "--codec", "maybe"], /--codec is on, off or both/],
    ] as const)
      expect(() => options([...argv]), argv.join(" ")).toThrow(refusal);
  });

  it("compares CPU per purchase (web + worker) and the click p95, on − off", () => {
    const o = options(["--prod", "--codec", "both", "--orders", "2"]);
    const runOf = (web: number, worker: number, p95: number) => ({
      o: {
        ...o,
        codec: "on",
        baseUrl: "http://localhost:3200",
        databaseUrl: "postgres://u:p@127.0.0.1:54360/marketplace",
        temporalAddress: "127.0.0.1:7253",
      },
      figures: {
        completed: [{}, {}],
        timed: [{}, {}],
        checked: { ok: 2, doubles: 0 },
        ops: 1,
        clicksAll: { p50: 100, p95 },
        cpuUsed: { web: 2 * web, worker: 2 * worker, temporal: 100, postgres: 200 },
      },
      run: { load0: [1], load1: [1], speed0: 100, speed1: 100 },
      prodStack: { webPorts: [3200], workflows: "prebuilt bundle" },
    });
    const text = codecText(o, runOf(120, 90, 900), runOf(100, 70, 800));
    expect(text).toMatch(
      /\| on \(production\) \| 2 of 2 \| 1\.00 \| 100 \| \*\*900\*\* \| 120 \| 90 \| \*\*210\*\* \|/,
    );
    expect(text).toMatch(
      /\| on − off \| \| ±0\.00 \(±0 %\) \| ±0 \(±0 %\) \| \*\*\+100 \(\+13 %\)\*\* \| \+20 \(\+20 %\) \| \+20 \(\+29 %\) \| \*\*\+40 \(\+24 %\)\*\* \|/,
    );
    expect(text).toContain("**+40 ms of CPU per purchase** (+24 %: 210 ms on, 170 ms off)");
  });
});
