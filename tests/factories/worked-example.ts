/**
 * The worked example of docs/product/money.md ("RMA refund and charge"): the original sale of 3 × $42.50
 * (goods $127.50, fee $12.75, shipping $23.75, total $164.00). One definition for the pure tests
 * (tests/unit/domain/rma-money.test.ts) and the workflow's (tests/workflows/rma.test.ts).
 */
import type { RmaOrderInput } from "../../domain/rma-money";

export const WORKED_EXAMPLE_SALE: RmaOrderInput = {
  kind: "sale",
  unitsReceived: 3,
  goodsCents: 12750,
  feeCents: 1275,
  shippingCents: 2375,
  totalCents: 16400,
};
