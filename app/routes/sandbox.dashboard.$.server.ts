/**
 * /sandbox/dashboard/*'s server half: the sandbox payment provider's dashboard, so staff's payment links lead
 * somewhere in development and tests as they lead to Stripe's dashboard in production (the same paths:
 * payments/<id>, refunds/<id>, connect/transfers/<id>, search?query=). Staff only; 404 when payments go to
 * Stripe.
 */
import { getSandboxObject, searchSandboxObjects } from "../../db/queries/payments";
import { formatCents } from "../../domain/money";
import { requireStaff } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { paymentsProvider } from "~/utils/env.server";

const RECORD_PATH = /^(?:payments|refunds|connect\/transfers)\/([A-Za-z0-9_]{1,100})$/;

/** A provider object as the dashboard shows it. */
export interface SandboxRecord {
  id: string;
  object: string;
  amount: string | null;
  status: string | null;
  description: string | null;
  metadata: [string, string][];
}

function recordOf(o: Record<string, unknown> & { id: string; object: string }): SandboxRecord {
  const metadata = o.metadata && typeof o.metadata === "object" ? o.metadata : {};
  return {
    id: o.id,
    object: o.object,
    amount: typeof o.amount === "number" ? formatCents(o.amount) : null,
    status: typeof o.status === "string" ? o.status : null,
    description: typeof o.description === "string" ? o.description : null,
    metadata: Object.entries(metadata as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  };
}

const notFound = () => new Response("Not Found", { status: 404 });

export async function sandboxDashboardPage(request: Request, path: string) {
  if (paymentsProvider() !== "sandbox") throw notFound();
  await requireStaff(request);
  if (path === "search") {
    const query = (new URL(request.url).searchParams.get("query") ?? "").slice(0, 200);
    return { query, records: (await searchSandboxObjects(db, query)).map(recordOf) };
  }
  const id = RECORD_PATH.exec(path)?.[1];
  const found = id ? await getSandboxObject(db, id) : undefined;
  if (!found) throw notFound();
  return { query: null, records: [recordOf(found)] };
}
