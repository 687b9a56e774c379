/**
 * The custom search attributes of every order workflow (buy, swap, RMA), declared once: what an operator
 * filters on in the Temporal Web UI or with `temporal workflow list --query` (README "Ops"). The driver
 * (workflows/common/driver.ts) upserts them when an order starts and after every step that changed them;
 * each kind says how its model maps to them (`buySearchFacts`, `swapSearchFacts`, `rmaSearchFacts` in its
 * model.ts).
 *
 * A server must know them before a workflow upserts them (an unknown one fails the workflow task): the dev
 * servers register them with `--search-attribute` (config/temporal-engine.mjs SEARCH_ATTRIBUTES),
 * docker-compose.yml with `temporal operator search-attribute create`, the time-skipping test server through
 * the operator service (tests/setup/temporal.ts). tests/unit/search-attributes.test.ts checks that those
 * lists are this one.
 *
 * SQL visibility (the dev server's SQLite, docker-compose's Postgres) has a fixed number of columns per type:
 * at most 3 Int and 3 KeywordList attributes per namespace (10 Keyword); this list uses 2 Int and 1 KeywordList.
 *
 * Pure (defineSearchAttributeKey only builds a name/type pair): usable in the workflow sandbox and tests.
 */
import {
  SearchAttributeType,
  defineSearchAttributeKey,
  type SearchAttributeUpdatePair,
} from "@temporalio/common";
import { stageForState, type Role } from "../../domain/states";

export const ORDER_SEARCH_ATTRIBUTES = Object.freeze({
  /** The order number retailers and staff see (orders.external_id: WX-000123; an RMA's RMA-000124). */
  orderNumber: defineSearchAttributeKey("OrderNumber", SearchAttributeType.KEYWORD),
  /** buy, swap or rma. */
  orderKind: defineSearchAttributeKey("OrderKind", SearchAttributeType.KEYWORD),
  /** The state name (orders.statename: domain/states.ts; an RMA's stage name). */
  orderState: defineSearchAttributeKey("OrderState", SearchAttributeType.KEYWORD),
  /** The admin stage (orders.stage: pre_shipping, approved, shipping, delivered, complete, declined, cancelled; an RMA's stage). */
  orderStage: defineSearchAttributeKey("OrderStage", SearchAttributeType.KEYWORD),
  /** The provider's retailer id (seller; swap provider; an RMA's victim, as in the read model). */
  providerRetailerId: defineSearchAttributeKey("ProviderRetailerId", SearchAttributeType.INT),
  /** The receiver's retailer id (buyer; swap receiver; an RMA's perpetrator, as in the read model). */
  receiverRetailerId: defineSearchAttributeKey("ReceiverRetailerId", SearchAttributeType.INT),
  /**
   * Whose move the order waits for (orders.action_needed as retailer ids): the retailer ids (decimal) that
   * must act, both sides of a swap in payment, "staff" for an RMA request; absent when nobody's (carrier,
   * timers, finished). `WaitingOn = "12"` matches an order waiting on retailer 12.
   */
  waitingOn: defineSearchAttributeKey("WaitingOn", SearchAttributeType.KEYWORD_LIST),
});

/** Every key, in declaration order (what the servers register). */
export const ORDER_SEARCH_ATTRIBUTE_KEYS = Object.values(ORDER_SEARCH_ATTRIBUTES);

/** Whose move it is, as the read model's action_needed says it. */
export type ActionNeeded = Role | "both" | "staff" | null;

/** What an order's search attributes are made of; each kind's model.ts derives it from its model. */
export interface OrderSearchFacts {
  orderNumber: string;
  kind: "buy" | "swap" | "rma";
  state: string;
  stage: string;
  providerId: number;
  receiverId: number;
  actionNeeded: ActionNeeded;
}

/** The facts of an order whose state name gives its stage (a purchase, a swap), as its read-model row has them. */
export function orderSearchFacts(
  kind: "buy" | "swap",
  m: { externalId: string; statename: string; providerId: number; receiverId: number },
  actionNeeded: ActionNeeded,
): OrderSearchFacts {
  return {
    orderNumber: m.externalId,
    kind,
    state: m.statename,
    stage: stageForState(m.statename),
    providerId: m.providerId,
    receiverId: m.receiverId,
    actionNeeded,
  };
}

/** The WaitingOn values of an order: the retailer ids whose move it is, or "staff". */
export function waitingOnOf(
  f: Pick<OrderSearchFacts, "providerId" | "receiverId" | "actionNeeded">,
): string[] {
  switch (f.actionNeeded) {
    case "provider":
      return [String(f.providerId)];
    case "receiver":
      return [String(f.receiverId)];
    case "both":
      return [String(f.providerId), String(f.receiverId)];
    case "staff":
      return ["staff"];
    default:
      return [];
  }
}

/** Every attribute of an order as typed pairs (an empty WaitingOn removes the attribute: null). */
export function orderSearchAttributes(f: OrderSearchFacts): SearchAttributeUpdatePair[] {
  const k = ORDER_SEARCH_ATTRIBUTES;
  const waiting = waitingOnOf(f);
  return [
    { key: k.orderNumber, value: f.orderNumber },
    { key: k.orderKind, value: f.kind },
    { key: k.orderState, value: f.state },
    { key: k.orderStage, value: f.stage },
    { key: k.providerRetailerId, value: f.providerId },
    { key: k.receiverRetailerId, value: f.receiverId },
    { key: k.waitingOn, value: waiting.length ? waiting : null },
  ];
}
