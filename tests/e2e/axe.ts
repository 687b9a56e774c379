/**
 * axe-core in the browser tests: what a page may not have is a serious or critical finding of the rules axe
 * runs by default (WCAG 2.x A/AA and its best practices), or a form field without a label (axe's `label` and
 * `select-name` rules, whatever their impact). axe-core runs in the page itself, injected once per document
 * (docs/decisions/0047-axe-core-in-the-page.md says why not @axe-core/playwright).
 */
import axe from "axe-core";
import type { Page } from "playwright-core";

/** Rules whose finding is a problem whatever its impact. */
const ALWAYS_REPORTED = new Set(["label", "select-name"]);
const RANK: Record<string, number> = { minor: 1, moderate: 2, serious: 3, critical: 4 };

/**
 * Rules that cannot produce a problem: their own impact and every one of their checks' is minor or moderate
 * (a finding's impact is its failed checks' highest), so their findings would all be filtered out below. Read
 * from axe's own rule data, so a new axe release that raises an impact runs the rule again. Not running them
 * saves about a tenth of a scan (23 of 89 rules in axe 4.13: landmarks, region, heading order...).
 */
const NEVER_REPORTED: string[] = (() => {
  const audit = (
    axe as unknown as {
      _audit: {
        rules: { id: string; impact?: string; any: unknown[]; all: unknown[]; none: unknown[] }[];
        data: { checks: Record<string, { impact?: string } | undefined> };
      };
    }
  )._audit;
  return audit.rules
    .filter((rule) => {
      if (ALWAYS_REPORTED.has(rule.id)) return false;
      const checks = [...rule.any, ...rule.all, ...rule.none].map((c) =>
        typeof c === "string" ? c : (c as { id: string }).id,
      );
      const impacts = [rule.impact, ...checks.map((id) => audit.data.checks[id]?.impact)];
      return impacts.every((i) => (RANK[i ?? ""] ?? 0) < RANK.serious);
    })
    .map((rule) => rule.id);
})();

const RUN_OPTIONS: axe.RunOptions = {
  // Only violations are wanted, so axe does not collect every passing node (several times faster on long lists).
  resultTypes: ["violations"],
  rules: Object.fromEntries(NEVER_REPORTED.map((id) => [id, { enabled: false }])),
};

/**
 * axe.run in the page itself, axe injected once per document (the app has no iframes). The @axe-core/playwright
 * builder used before injected its 0.6 MB script twice per scan in its legacy mode (0.70 s a scan against 0.45 s
 * now, same findings), and by default ran axe in every frame, then again in a new blank page (0.9 s).
 */
export async function axeProblems(
  page: Page,
  where = new URL(page.url()).pathname + new URL(page.url()).search,
): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const result = await page.evaluate(
    (options) => (window as unknown as { axe: typeof axe }).axe.run(document, options),
    RUN_OPTIONS,
  );
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical" || ALWAYS_REPORTED.has(v.id))
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.length} × ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
}
