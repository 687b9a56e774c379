/**
 * The stand-ins of the swap panel's tests (tests/unit/swap-forms.test.ts, swap-command-deadline.test.ts): the
 * view the order service answers, the order the panel acts on, and the swap listings the panel reads (none:
 * these forms add or raise nothing). A vi.mock factory loads them with a dynamic import.
 */
import type { OrderDetail } from "../../db/queries/order-views/order-detail";
import { SWAP_STATES } from "../../domain/states";

/** The swap's view query's answer: one line each side. */
export const SWAP_VIEW = {
  provider: { lines: [{ listingId: 1, variationId: 2, sizes: { M: 1 } }] },
  receiver: { lines: [{ listingId: 3, variationId: 4, sizes: { S: 1 } }] },
};

/** A swap waiting for its provider's approval, as the provider's panel reads it. */
export const PROVIDER_APPROVE_ORDER = {
  id: 7,
  workflowId: "swap-order:7",
  role: "provider",
  statename: SWAP_STATES.PROVIDER_APPROVE,
} as unknown as OrderDetail;

/** db/queries/swap-orders with no swap listings to choose from. */
export async function withoutSwapChoices<M extends object>(importOriginal: () => Promise<M>) {
  return { ...(await importOriginal()), swapChoices: async () => [] };
}
