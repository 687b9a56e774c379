/**
 * A pass repeated until stopped, as the worker's sweeps run (the SMTP sender, activities/mail/smtp.ts; the
 * webhook relay, workers/webhook-relay.ts): a pass that handled a full batch goes again at once, otherwise the
 * next waits `everyMs`; a failed pass is logged and the sweep goes on. stop() wakes a waiting sweep and waits
 * for the pass in hand.
 */
export interface Sweep {
  start(): void;
  stop(): Promise<void>;
}

/** `pass` answers true when its batch was full (more may be due). */
export function sweepEvery(
  everyMs: number,
  pass: () => Promise<boolean>,
  onError: (why: string) => void,
): Sweep {
  let running: Promise<void> | null = null;
  let stopped = false;
  let wake: (() => void) | null = null;

  return {
    start() {
      if (running) return;
      stopped = false;
      running = (async () => {
        while (!stopped) {
          try {
            if (await pass()) continue;
          } catch (err) {
            onError(err instanceof Error ? err.message : String(err));
          }
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, everyMs);
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
          wake = null;
        }
      })();
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
      running = null;
    },
  };
}
