/**
 * All side effects the workflows use, built by one factory from their dependencies (the worker is the
 * composition root). Workflows import `type Activities` only.
 */
import type { Db } from "../db/client";
import type { Mailer } from "./mail";
import type { PaymentsPort } from "./payments/port";
import { createCardActivities } from "./card";
import { createPayoutActivities } from "./payout";
import { createCardReadModelActivities } from "./readmodel/card";
import { createPayoutReadModelActivities } from "./readmodel/payout";

export interface ActivityDeps {
  db: Db;
  payments: PaymentsPort;
  mail: Mailer;
  env: { APP_ORIGIN: string };
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createPayoutReadModelActivities(deps.db),
    ...createPayoutActivities({ payments: deps.payments, mail: deps.mail, appOrigin: deps.env.APP_ORIGIN }),
    ...createCardReadModelActivities(deps.db),
    ...createCardActivities({ payments: deps.payments }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
