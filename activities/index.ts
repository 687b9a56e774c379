/**
 * All side effects the workflows use, built by one factory from their dependencies (the worker is the
 * composition root). Each workflow owns the interface of the activities it calls
 * (workflows/<kind>/activities.ts); the factories here implement them, imported as types, and nothing in
 * workflows/ imports activities/.
 */
import type { Db } from "../db/client";
import { DEFAULT_MARKETPLACE_TZ } from "../domain/business-days";
import type { BuyActivities } from "../workflows/buy/activities";
import type { CardActivities } from "../workflows/card/activities";
import type { HeldPaymentActivities } from "../workflows/held-payments/activities";
import type { MarkdownActivities } from "../workflows/markdown/activities";
import type { OfferActivities } from "../workflows/offer/activities";
import type { PayoutActivities } from "../workflows/payout/activities";
import type { ReconciliationActivities } from "../workflows/reconciliation/activities";
import type { RmaActivities } from "../workflows/rma/activities";
import type { SwapActivities } from "../workflows/swap/activities";
import type { Mailer } from "./mail";
import type { PaymentsPort } from "./payments/port";
import { createBuyActivities } from "./buy";
import { createSandboxCarrier, type SandboxCarrier } from "./carrier/sandbox";
import { createCardActivities } from "./card";
import { createHeldPaymentActivities } from "./held-payments";
import { createMarkdownActivities } from "./markdown";
import { createOfferActivities } from "./offer";
import { createPayoutActivities } from "./payout";
import { createCardReadModelActivities } from "./readmodel/card";
import { createPayoutReadModelActivities } from "./readmodel/payout";
import { createReconciliationActivities } from "./reconciliation";
import { createRmaActivities } from "./rma";
import { createSwapActivities } from "./swap";

export interface ActivityDeps {
  db: Db;
  payments: PaymentsPort;
  mail: Mailer;
  env: { APP_ORIGIN: string; CARRIER_WEBHOOK_SECRET?: string; MARKETPLACE_TZ?: string };
  /** The carrier (default: the sandbox carrier, sending webhooks to APP_ORIGIN signed with CARRIER_WEBHOOK_SECRET). */
  carrier?: SandboxCarrier;
}

/** The default carrier of a worker: the sandbox carrier. */
export function defaultCarrier(deps: Pick<ActivityDeps, "db" | "env">): SandboxCarrier {
  return createSandboxCarrier(deps.db, {
    appOrigin: deps.env.APP_ORIGIN,
    webhookSecret: deps.env.CARRIER_WEBHOOK_SECRET ?? "carrier_sandbox_local_only",
  });
}

/** What the worker registers: every activity some workflow calls. */
export type Activities = BuyActivities &
  SwapActivities &
  RmaActivities &
  CardActivities &
  PayoutActivities &
  HeldPaymentActivities &
  ReconciliationActivities &
  MarkdownActivities &
  OfferActivities;

export function createActivities(deps: ActivityDeps): Activities {
  const timeZone = deps.env.MARKETPLACE_TZ ?? DEFAULT_MARKETPLACE_TZ;
  const buy = createBuyActivities({
    db: deps.db,
    payments: deps.payments,
    carrier: deps.carrier ?? defaultCarrier(deps),
    appOrigin: deps.env.APP_ORIGIN,
    timeZone,
  });
  return {
    ...createPayoutReadModelActivities(deps.db),
    ...createPayoutActivities({
      payments: deps.payments,
      mail: deps.mail,
      appOrigin: deps.env.APP_ORIGIN,
    }),
    ...createCardReadModelActivities(deps.db),
    ...createCardActivities({ payments: deps.payments }),
    ...buy,
    ...createSwapActivities({ db: deps.db, buy, appOrigin: deps.env.APP_ORIGIN, timeZone }),
    ...createRmaActivities({ db: deps.db, buy, appOrigin: deps.env.APP_ORIGIN, timeZone }),
    ...createHeldPaymentActivities({ db: deps.db, payments: deps.payments }),
    ...createReconciliationActivities({ db: deps.db, payments: deps.payments }),
    ...createMarkdownActivities({ db: deps.db }),
    ...createOfferActivities({
      db: deps.db,
      payments: deps.payments,
      appOrigin: deps.env.APP_ORIGIN,
    }),
  };
}
