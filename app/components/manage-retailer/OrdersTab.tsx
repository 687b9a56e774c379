/** Transactions and RMAs tabs: the orders the retailer is a party of, each with the other side's Info link. */
import { Link } from "@remix-run/react";
import type { ordersTab } from "~/utils/manage-retailer.server";
import { DataTable, type Column } from "./DataTable";

type OrdersData = Awaited<ReturnType<typeof ordersTab>>;
type Order = OrdersData["orders"][number];

const COLUMNS: Column<Order>[] = [
  { head: "order", cell: (o) => o.externalId },
  { head: "type", cell: (o) => o.type },
  { head: "role", cell: (o) => o.role },
  {
    head: "other side",
    cell: (o) => (
      <Link to={`/manage-retailer/info?id=${o.otherId}`}>
        {o.otherName} #{o.otherId}
      </Link>
    ),
  },
  { head: "brand", cell: (o) => o.brandName ?? "—" },
  { head: "status", cell: (o) => o.displayStatus },
  { head: "stage", cell: (o) => o.stage },
  { head: "value", cell: (o) => o.value },
  { head: "created", cell: (o) => o.created },
];

export function OrdersTab({ d }: { d: OrdersData }) {
  if (d.orders.length === 0)
    return <p className="muted">{d.kind === "rmas" ? "No RMAs yet." : "No transactions yet."}</p>;
  return <DataTable testId="orders" columns={COLUMNS} rows={d.orders} rowKey={(o) => o.id} />;
}
