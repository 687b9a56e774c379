/**
 * axe-core in the browser tests: what a page may not have is a serious or critical WCAG 2.1
 * A/AA finding, or a form field without a label (axe's `label` and `select-name` rules, whatever their impact).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

export async function axeProblems(
  page: Page,
  where = new URL(page.url()).pathname + new URL(page.url()).search,
): Promise<string[]> {
  // resultTypes: only violations are wanted, so axe does not collect every passing node (several times faster on long lists).
  // Legacy mode: axe.run in the page itself; the default (runPartial in every frame, then finishRun in a new blank
  // page) opened a page and injected axe twice per scan: 0.9 s a page against 0.45 s. The app has no iframes, and
  // legacy mode leaves out only cross-origin frames.
  const result = await new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .options({ resultTypes: ["violations"] })
    .analyze();
  return result.violations
    .filter(
      (v) =>
        v.impact === "serious" ||
        v.impact === "critical" ||
        v.id === "label" ||
        v.id === "select-name",
    )
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.length} × ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
}
