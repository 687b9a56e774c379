// Proves the unit suite runs (TypeScript, globals, the ~/ alias resolve).
import { getEnv } from "~/utils/env.server";

test("the unit suite runs and the env module parses defaults", () => {
  expect(1 + 1).toBe(2);
  expect(getEnv().TEMPORAL_TASK_QUEUE).toBeTypeOf("string");
});
