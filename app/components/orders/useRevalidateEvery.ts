import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Re-runs the page's loaders every `ms` while the tab is visible and `enabled` (docs/product/windows.md, "Polling": alert counters
 * refresh every 15 s, polling stops while a detail is open; failures are ignored by the revalidator).
 */
export function useRevalidateEvery(ms: number, enabled = true): void {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!enabled) return;
    const id = window.setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle")
        revalidator.revalidate();
    }, ms);
    return () => window.clearInterval(id);
  }, [ms, enabled, revalidator]);
}

/** Alerts poll interval (docs/product/windows.md, "Polling"). */
export const ALERTS_POLL_MS = 15_000;
