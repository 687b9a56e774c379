/**
 * What the workflow tests' in-memory activities share: every call recorded (name and input, in order) before the
 * fake answers it, and the money calls read back once per idempotency key.
 */

/** One call an in-memory activity received. */
export interface ActivityCall<N extends string> {
  name: N;
  input: Record<string, unknown>;
}

/** `impl`'s activities as the worker runs them: each call pushed onto `calls`, then answered by `impl`. */
export function recordingActivities<N extends string>(
  impl: Partial<Record<N, (input: never) => unknown>>,
  calls: ActivityCall<N>[],
): Record<N, (input: Record<string, unknown>) => Promise<unknown>> {
  return Object.fromEntries(
    Object.entries(impl).map(([name, fn]) => [
      name,
      async (input: Record<string, unknown>) => {
        calls.push({ name: name as N, input });
        return (fn as (i: unknown) => unknown)(input);
      },
    ]),
  ) as Record<N, (input: Record<string, unknown>) => Promise<unknown>>;
}

/**
 * The calls of activities `names` as [activity, key without the workflow id, amount], one per idempotency key:
 * a local activity run again (a workflow task retried under load) is the same call to the provider.
 */
export function moneyCalls<N extends string>(calls: ActivityCall<N>[], names: readonly N[]) {
  return calls
    .filter((c) => names.includes(c.name))
    .filter(
      (c, i, all) => all.findIndex((o) => o.input.idempotencyKey === c.input.idempotencyKey) === i,
    )
    .map((c) => [
      c.name,
      String(c.input.idempotencyKey).split(":").slice(2).join(":"),
      c.input.amountCents,
    ]);
}
