/** Sales-rep reports (docs/product/screens.md, "Staff: reports and map"; ADR 0018): a rep's retailers and their activity. */
import {
  getSalesRep,
  listSalesReps,
  repRetailers,
  repTradeTotals,
  type SalesRepRow,
} from "../../db/queries/reports";
import { formatCents } from "../../domain/money";
import { formatDate } from "../../domain/date-format";
import { db } from "./db.server";
import { getEnv } from "./env.server";

export const ACTIVITY_DAYS = 90;

/** The start of the reports' window: ACTIVITY_DAYS days before `now`. */
function activitySince(now: Date): Date {
  return new Date(now.getTime() - ACTIVITY_DAYS * 24 * 3600_000);
}

export function repView(r: SalesRepRow) {
  return {
    id: r.id,
    territory: r.territoryName,
    name: `${r.firstName} ${r.lastName}`.trim(),
    states: r.states.join(", "),
  };
}

/** Every rep with the totals of the retailers in its states over the last ACTIVITY_DAYS days. */
export async function repPerformance(now: Date) {
  const since = activitySince(now);
  const reps = await listSalesReps(db);
  return Promise.all(
    reps.map(async (rep) => {
      const [rs, trades] = await Promise.all([
        repRetailers(db, rep.states, since),
        repTradeTotals(db, rep.states, since),
      ]);
      return {
        ...repView(rep),
        retailers: rs.length,
        active: rs.filter((r) => r.status === "active").length,
        seen: rs.filter((r) => r.lastActiveAt !== null && r.lastActiveAt >= since).length,
        // Each order once (an order between two of the rep's retailers is in both their rows).
        orders: trades.orders,
        value: formatCents(trades.valueCents),
        listings: rs.reduce((n, r) => n + r.listings, 0),
        requests: rs.reduce((n, r) => n + r.requests, 0),
      };
    }),
  );
}

/** One rep and its retailers with their activity, or null. */
export async function repReport(id: number, now: Date) {
  const rep = await getSalesRep(db, id);
  if (!rep) return null;
  const rs = await repRetailers(db, rep.states, activitySince(now));
  return {
    rep: repView(rep),
    retailers: rs.map((r) => ({
      ...r,
      lastActive: r.lastActiveAt ? formatDate(r.lastActiveAt, getEnv().MARKETPLACE_TZ) : "—",
      value: formatCents(r.valueCents),
    })),
  };
}
