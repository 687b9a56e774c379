/**
 * The columns of staff's CSV reports, in order (docs/guides/retailer-admin-reports-and-map.md, "Reports (CSV)"):
 * what the queries write (tests/db/reports.test.ts) and what the report links serve
 * (tests/e2e/retailer-admin.test.ts).
 */
export const REPORT_COLUMNS = {
  shipmentInsurance: [
    "shipment_id",
    "order_id",
    "transaction_type",
    "created",
    "carrier",
    "tracking_number",
    "status",
    "sender_id",
    "sender_store",
    "sender_state",
    "receiver_id",
    "receiver_store",
    "receiver_state",
    "units",
    "declared_value",
  ],
  monthlyMetrics: [
    "month",
    "orders",
    "swaps",
    "rmas",
    "traded_orders",
    "gross_value",
    "fees",
    "active_retailers",
    "new_retailers",
  ],
  brandInventory: [
    "brand_id",
    "brand",
    "is_active",
    "listings",
    "sell_listings",
    "swap_listings",
    "units",
    "value",
    "hidden_listings",
    "requests",
    "requested_units",
  ],
  retailerBrands: [
    "retailer_id",
    "store_name",
    "city",
    "state",
    "retailer_status",
    "brand_id",
    "brand",
    "status",
    "created",
  ],
};
