/**
 * The demo year's clock (ADR 0063). The year is played on Temporal's time-skipping test server: workflow time
 * (timers, the instants a workflow records) is the server's, which jumps forward when the clock is advanced,
 * while what the activities and the database stamp (Date.now(), now()) is the machine's real time, which
 * moves a few seconds meanwhile. The clock keeps both:
 *
 * - The trades are scripts that say when they go on (`until(ms)`, server time). When every running script
 *   waits, the clock advances the server to the earliest instant asked for and lets the scripts due go on, so
 *   trades overlap as they would over a year while the server only ever moves forward.
 * - Around every advance it notes (real ms, server ms) checkpoints, so a real-clock stamp can be read back as
 *   the server instant at which it was written (`serverTimeOf`): the stamp's place in the year.
 */
import type { TestWorkflowEnvironment } from "@temporalio/testing";

interface Waiter {
  at: number;
  resolve: () => void;
}

export interface Checkpoint {
  realMs: number;
  serverMs: number;
}

export class DemoClock {
  private readonly waiters: Waiter[] = [];
  private running = 0;
  private advancing = false;
  private failure: unknown = null;
  readonly checkpoints: Checkpoint[] = [];
  /**
   * Called after each advance, before the scripts due go on, with the server instant reached: what a Temporal
   * Schedule would have started meanwhile (the daily markdown run, markdowns.ts). A failure fails the year.
   */
  onAdvance: ((serverMs: number) => Promise<void>) | null = null;

  /**
   * `grid`: instants asked for are rounded up to a multiple of it, so trades that go on within the same slot go on
   * together in one advance (each advance costs round trips to the server; the year's length in real time is
   * about the number of advances).
   */
  constructor(
    private readonly env: TestWorkflowEnvironment,
    private readonly grid = 1,
  ) {}

  now(): Promise<number> {
    return this.env.currentTimeMs();
  }

  /** Notes where the two clocks stand now. */
  async mark(): Promise<void> {
    const serverMs = await this.env.currentTimeMs();
    this.checkpoints.push({ realMs: Date.now(), serverMs });
  }

  /** Runs `scripts` to their end, each as one trade of the year; the first failure is thrown after all stop. */
  async play(scripts: (() => Promise<void>)[]): Promise<void> {
    await this.mark();
    this.running = scripts.length;
    await Promise.all(
      scripts.map(async (s) => {
        try {
          await s();
        } catch (err) {
          this.failure ??= err;
        } finally {
          this.running -= 1;
          this.kick();
        }
      }),
    );
    await this.mark();
    if (this.failure) throw this.failure;
  }

  /** Resolves once the server clock has reached `ms` (never earlier; possibly later, with the other scripts). */
  until(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push({ at: Math.ceil(ms / this.grid) * this.grid, resolve });
      this.running -= 1;
      this.kick();
    });
  }

  /** `until` `ms` after now. */
  async after(ms: number): Promise<void> {
    await this.until((await this.now()) + ms);
  }

  /** When every running script waits: advance to the earliest instant asked for, and wake the scripts due. */
  private kick(): void {
    if (this.advancing || this.running > 0 || this.waiters.length === 0) return;
    this.advancing = true;
    void this.advance().finally(() => {
      this.advancing = false;
      this.kick();
    });
  }

  private async advance(): Promise<void> {
    this.waiters.sort((a, b) => a.at - b.at);
    const at = this.waiters[0].at;
    const now = await this.env.currentTimeMs();
    if (at > now) {
      await this.mark();
      await this.env.sleep(at - now);
      await this.mark();
    }
    const reached = await this.env.currentTimeMs();
    if (at > now && this.onAdvance)
      await this.onAdvance(reached).catch((err: unknown) => {
        this.failure ??= err;
      });
    const due = this.waiters.filter((w) => w.at <= reached);
    this.waiters.splice(0, due.length);
    this.running += due.length;
    for (const w of due) w.resolve();
  }

  /**
   * The server instant at which a real-clock stamp was written: the next checkpoint's server time less the real
   * time between them (a stamp written while the server skipped counts at the skip's end, when the timers that
   * fired ran their activities); after the last checkpoint, the last one's plus the real time since.
   */
  serverTimeOf(realMs: number): number {
    const next = this.checkpoints.find((c) => c.realMs >= realMs);
    if (next) return next.serverMs - (next.realMs - realMs);
    const last = this.checkpoints[this.checkpoints.length - 1];
    return last.serverMs + (realMs - last.realMs);
  }
}
