/**
 * In-memory stand-ins for the buy workflow's activities (workflows/buy/activities.ts), for time-skipping
 * tests: they record every call, keep a read model per order the way Postgres would (latest state, all
 * action rows, deduplicated by the workflow's dedupe keys), an outbox deduplicated by dedupe key, and
 * honour idempotency keys (same key = same result, same key with other parameters = IdempotencyConflict).
 */
import { ApplicationFailure } from "@temporalio/activity";
import type {
  BuyActivities,
  BuyActivityName,
  CardOnFile,
  OrderNotice,
  OrderStateRecord,
} from "../../../workflows/buy/activities";
import type { OrderLine } from "../../../domain/order-money";
import {
  buyWorkflowId,
  type BuyActionRecord,
  type BuyOrderInput,
} from "../../../workflows/buy/contract";
import { recordingActivities, type ActivityCall } from "./recording";

export const OK_CARD = { paymentMethodId: "pm_card_visa", lastFour: "4242", description: "Visa" };
export const DECLINED_CARD = {
  paymentMethodId: "pm_card_chargeDeclined",
  lastFour: "0002",
  description: "Visa",
};
export const SELLER_CARD = {
  paymentMethodId: "pm_card_mastercard",
  lastFour: "4444",
  description: "Mastercard",
};

export interface FakeOptions {
  /** Payment methods the provider declines. */
  declined?: string[];
  /** Cards on file per retailer id (absent = none). */
  cardsOnFile?: Record<number, CardOnFile>;
  /** Conflicting pending orders per order id (what findConflictingOrders answers). */
  conflicts?: Record<number, number[]>;
  /** Stock per `${listingId}:${size}`; a line not listed has unlimited stock. */
  stock?: Record<string, number>;
  /** The read-model write of this state waits for `until` (a slow database: the step stays busy). */
  holdRecord?: { statename: string; until: Promise<void>; entered?: () => void };
}

export type Call = ActivityCall<BuyActivityName>;

export interface OrderReadModel {
  /** The latest state written (what orders row holds). */
  latest: OrderStateRecord;
  /** Every action row written (order_actions), in order. */
  actions: BuyActionRecord[];
  writes: number;
}

const MONEY: BuyActivityName[] = [
  "authorizePayment",
  "capturePayment",
  "releaseAuthorization",
  "refundPayment",
  "chargeSellerPenalty",
  "releaseSellerPayout",
  "saveCardOnFile",
];

export function createFakeBuyActivities(options: FakeOptions = {}) {
  const declined = new Set(options.declined ?? [DECLINED_CARD.paymentMethodId]);
  const cards = new Map<number, CardOnFile>(
    Object.entries(options.cardsOnFile ?? {}).map(([k, v]) => [Number(k), v]),
  );
  const stock = new Map<string, number>(Object.entries(options.stock ?? {}));
  const calls: Call[] = [];
  const readModel = new Map<number, OrderReadModel>();
  const seenRecordKeys = new Set<string>();
  const outbox = new Map<string, OrderNotice>();
  const idem = new Map<string, { params: string; result: unknown }>();
  let seq = 0;

  /** Same key + same parameters -> the first result; same key + other parameters -> IdempotencyConflict. */
  async function once<T>(key: string, params: unknown, run: () => T | Promise<T>): Promise<T> {
    const p = JSON.stringify(params);
    const prior = idem.get(key);
    if (prior) {
      if (prior.params !== p)
        throw ApplicationFailure.nonRetryable(
          `idempotency key ${key} reused with other parameters`,
          "IdempotencyConflict",
        );
      return prior.result as T;
    }
    const result = await run();
    idem.set(key, { params: p, result });
    return result;
  }

  const stockKey = (l: OrderLine, size: string) => `${l.listingId}:${size}`;

  const impl: BuyActivities = {
    async recordOrderState(input) {
      if (options.holdRecord && input.statename === options.holdRecord.statename) {
        options.holdRecord.entered?.();
        await options.holdRecord.until;
      }
      if (seenRecordKeys.has(input.dedupeKey)) return;
      seenRecordKeys.add(input.dedupeKey);
      // The step's notices go to the outbox with its state (one transaction in Postgres).
      for (const n of input.notices ?? []) if (!outbox.has(n.dedupeKey)) outbox.set(n.dedupeKey, n);
      const prev = readModel.get(input.orderId);
      readModel.set(input.orderId, {
        latest: input,
        actions: [...(prev?.actions ?? []), ...input.actions],
        writes: (prev?.writes ?? 0) + 1,
      });
    },
    async authorizePayment(input) {
      return once(input.idempotencyKey, input, () => {
        if (declined.has(input.paymentMethod.paymentMethodId)) {
          return {
            status: "declined" as const,
            declineCode: "card_declined",
            message: "Your card was declined.",
          };
        }
        seq += 1;
        return {
          status: "authorized" as const,
          paymentIntentId: `pi_fake_${input.orderId}_${seq}`,
          amountCents: input.amountCents,
          lastFour: input.paymentMethod.lastFour,
          description: input.paymentMethod.description,
        };
      });
    },
    async capturePayment(input) {
      if (input.amountCents > input.authorizedCents)
        throw ApplicationFailure.nonRetryable("capture above authorisation", "PaymentRejected");
      return once(input.idempotencyKey, input, () => ({
        status: "captured" as const,
        capturedCents: input.amountCents,
        chargeId: `ch_fake_${input.orderId}`,
      }));
    },
    async releaseAuthorization(input) {
      await once(input.idempotencyKey, input, () => undefined);
    },
    async refundPayment(input) {
      return once(input.idempotencyKey, input, () => ({
        status: "refunded" as const,
        refundId: `re_fake_${input.orderId}`,
      }));
    },
    async chargeSellerPenalty(input) {
      return once(input.idempotencyKey, input, () => ({
        status: "charged" as const,
        chargeId: `ch_penalty_${input.orderId}`,
      }));
    },
    async releaseSellerPayout(input) {
      return once(input.idempotencyKey, input, () => ({
        status: "paid" as const,
        transferId: `tr_fake_${input.orderId}`,
        releasedAt: "2026-01-01T00:00:00.000Z",
      }));
    },
    async getCardOnFile({ retailerId }) {
      return cards.get(retailerId) ?? null;
    },
    async saveCardOnFile(input) {
      return once(input.idempotencyKey, input, () => {
        if (declined.has(input.paymentMethod.paymentMethodId))
          return { status: "declined" as const, message: "Your card was declined." };
        const card = { ...input.paymentMethod };
        cards.set(input.retailerId, card);
        return { status: "saved" as const, card };
      });
    },
    async recordPaymentEvent() {},
    async findConflictingOrders({ orderId }) {
      return { orderIds: options.conflicts?.[orderId] ?? [] };
    },
    async approvalFacts({ orderId, providerId }) {
      return {
        cardOnFile: cards.has(providerId),
        conflictingOrderIds: options.conflicts?.[orderId] ?? [],
      };
    },
    async decrementStock(input) {
      return once(input.idempotencyKey, input, () => {
        for (const l of input.lines) {
          for (const [size, n] of Object.entries(l.sizes)) {
            const k = stockKey(l, size);
            if (stock.has(k) && (stock.get(k) as number) < n)
              return { ok: false as const, listingId: l.listingId, size };
          }
        }
        for (const l of input.lines) {
          for (const [size, n] of Object.entries(l.sizes)) {
            const k = stockKey(l, size);
            if (stock.has(k)) stock.set(k, (stock.get(k) as number) - n);
          }
        }
        return { ok: true as const };
      });
    },
    async restoreStock(input) {
      await once(input.idempotencyKey, input, () => {
        for (const l of input.lines) {
          for (const [size, n] of Object.entries(l.sizes)) {
            const k = stockKey(l, size);
            if (stock.has(k)) stock.set(k, (stock.get(k) as number) + n);
          }
        }
      });
    },
    async bookPickup(input) {
      return once(input.idempotencyKey, input, () => ({
        shipmentId: `shp_${input.orderId}`,
        callTag: `CT-${input.orderId}-${input.attempt}`,
        trackingNumber: `TRK${input.orderId}`,
        labelUrl: null,
        trackingUrl: null,
      }));
    },
    async cancelPickup(input) {
      await once(input.idempotencyKey, input, () => undefined);
    },
    async saveOrderRating(input) {
      await once(input.idempotencyKey, input, () => undefined);
    },
  };

  const activities = recordingActivities(impl, calls) as unknown as BuyActivities;

  return {
    activities,
    calls,
    stock,
    outbox,
    /** Inputs of one activity, optionally for one order. */
    of(name: BuyActivityName, orderId?: number) {
      return calls
        .filter((c) => c.name === name && (orderId === undefined || c.input.orderId === orderId))
        .map((c) => c.input);
    },
    /** Money calls of an order's workflow as [activity, idempotency key, amount] (activity retries collapsed). */
    payments(orderId: number) {
      const out: [string, string, number | undefined][] = [];
      const seen = new Set<string>();
      const prefix = `${buyWorkflowId(orderId)}:`;
      for (const c of calls) {
        if (!MONEY.includes(c.name)) continue;
        const key = c.input.idempotencyKey as string;
        if (!key.startsWith(prefix)) continue;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push([c.name, key, c.input.amountCents as number | undefined]);
      }
      return out;
    },
    readModelOf(orderId: number): OrderReadModel {
      const r = readModel.get(orderId);
      if (!r) throw new Error(`no read model for order ${orderId}`);
      return r;
    },
    codesOf(orderId: number): number[] {
      return (readModel.get(orderId)?.actions ?? []).map((a) => a.code);
    },
    mailsTo(orderId: number) {
      return [...outbox.values()]
        .filter((m) => m.orderId === orderId)
        .map((m) => `${m.role}:${m.template}`);
    },
  };
}

export type FakeBuyActivities = ReturnType<typeof createFakeBuyActivities>;

/** The input of a purchase from a listing, as checkout starts it; `over` sets the rest. */
export function buyInput(
  orderId: number,
  providerId: number,
  receiverId: number,
  lines: OrderLine[],
  over: Partial<BuyOrderInput> = {},
): BuyOrderInput {
  return {
    orderId,
    externalId: `WX-${String(orderId).padStart(6, "0")}`,
    kind: "from_listing",
    providerId,
    receiverId,
    requestId: null,
    lines,
    ...over,
  };
}
