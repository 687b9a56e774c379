/**
 * One line of the worker's own log: `[worker] ...` on the console, or a JSON line when LOG_FORMAT=json.
 * Light on purpose: workers/main.ts writes its refusals with it before anything heavy loads.
 */
export function say(level: "info" | "warn" | "error", msg: string): void {
  if (process.env.LOG_FORMAT === "json")
    process.stdout.write(
      JSON.stringify({ time: new Date().toISOString(), level, msg: `[worker] ${msg}` }) + "\n",
    );
  else
    (level === "info" ? console.log : level === "warn" ? console.warn : console.error)(
      `[worker] ${msg}`,
    );
}
