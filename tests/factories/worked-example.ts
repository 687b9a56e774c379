/**
 * The worked example of docs/product/money.md ("RMA refund and charge"), and the path of its RMA through the
 * workflow: what the pure tests, the workflow's and the real activities' tests share.
 */

import { ACTION } from "../../domain/action-codes";
import type { RmaOrderInput } from "../../domain/rma-money";

/** The example's original sale: 3 × $42.50 (goods $127.50, fee $12.75, shipping $23.75, total $164.00). */
export const WORKED_EXAMPLE_SALE: RmaOrderInput = {
  kind: "sale",
  unitsReceived: 3,
  goodsCents: 12750,
  feeCents: 1275,
  shippingCents: 2375,
  totalCents: 16400,
};

/**
 * The actions an RMA records, in order, when staff approve it, its return is picked up and delivered, the victim
 * is refunded and the perpetrator charged: the same with the fake activities (tests/workflows/rma.test.ts) and
 * the real ones (tests/workflows/rma-real-activities.test.ts).
 */
export const RETURN_DELIVERED_ACTIONS = [
  ACTION.RMA_REQUESTED,
  ACTION.RMA_APPROVED,
  ACTION.CALL_TAG_SCHEDULED_RMA,
  ACTION.SHIPMENT_PICKED_UP,
  ACTION.SHIPMENT_DELIVERED,
  ACTION.RMA_VICTIM_REFUNDED,
  ACTION.RMA_COMPLETED,
  ACTION.RMA_PERPETRATOR_CHARGED,
];
