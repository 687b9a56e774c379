/**
 * Server side of a swap's panel on /transaction/swap/:id (docs/product/orders.md, "Swap"): what the panel needs (the swap's terms as its workflow recorded them with its last step:
 * both sides' goods, dues, whose move; for the provider's choice, the receiver's swap listings), and the
 * retailer commands, sent as updates to the swap's workflow. A refused command comes back as its message with a 4xx.
 *
 * Commands: choose (the provider's choice from the receiver's swap listings, units.<listingId>.<size>; again
 * while the swap waits on the provider's approval), approve (optional call_it_even; changed quantities
 * lines.<side>.<i>.<size> and lines added add.<side>.<listingId>.<size> are "Submit Response", a
 * modification: lowered, or raised up to the units the listing still has, ADR 0025; past them refused with
 * its message and a 400, nothing sent), remove:<side>.<i> (one line; refused -> "Summary is restored"), decline (reason),
 * call_it_even / accept_decline (the last chance after a decline over money), pay (Make Payment with a card),
 * cancel_shipment (reason; this side's parcel while its pickup is scheduled).
 */
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { recordedSwapView, swapChoices, type SwapChoice } from "../../db/queries/swap-orders";
import type { OrderDetail } from "../../db/queries/order-views/order-detail";
import { CANCEL_SHIPMENT_REASONS, SWAP_DECLINE_REASONS } from "../../domain/reasons";
import { SWAP_SUMMARY_RESTORED } from "../../domain/messages";
import {
  BUY_STATES,
  SWAP_OPEN_STATES,
  SWAP_STATES,
  isMoveOf,
  type Role,
} from "../../domain/states";
import {
  acceptDeclineUpdate,
  approveSwapUpdate,
  callItEvenUpdate,
  cancelSwapShipmentUpdate,
  chooseItemsUpdate,
  declineSwapUpdate,
  makePaymentUpdate,
  modifySwapUpdate,
  SWAP_ERRORS,
  swapCommandError,
  swapViewQuery,
  type SwapCommandResult,
  type SwapView,
} from "../../workflows/swap/contract";
import { db } from "./db.server";
import { ORDER_UNAVAILABLE_MESSAGE } from "../../domain/messages";
import { paymentMethodFromForm } from "./card-form.server";
import { parseSubmission } from "./form.server";
import {
  COMMAND_TIMEOUT_MS,
  commandErrorStatus,
  getTemporalClient,
  isTemporalUnavailable,
  sendOrderCommand,
  withTimeout,
  type CommandOutcome,
} from "./temporal.server";

export interface SwapPanelData {
  view: SwapView | null;
  /** The provider choosing (or choosing again while the swap waits on its approval): the receiver's swap listings of the brand. */
  choices: SwapChoice[];
  /**
   * On the viewer's move in the negotiation: each side's active swap listings of the brand (a line's units
   * may be raised up to its listing's; a listing not in the swap may be added to its owner's side).
   */
  listings: Record<Role, SwapChoice[]> | null;
}

/** Each side's active swap listings of the swap's brand, as they stand (docs/product/orders.md, "Swap"). */
async function sideListings(order: OrderDetail): Promise<Record<Role, SwapChoice[]>> {
  const [provider, receiver] = await Promise.all([
    swapChoices(db, order.providerId, order.brandId),
    swapChoices(db, order.receiverId, order.brandId),
  ]);
  return { provider, receiver };
}

/**
 * The panel's data for a party of an open swap (null when the swap is past payment or the viewer is staff): the
 * terms as the workflow recorded them with its last step (no trip to the workflow; a page shows them even while
 * no worker answers), else, for a swap last written before the read model kept them, as the workflow answers.
 */
export async function swapPanelData(order: OrderDetail): Promise<SwapPanelData | null> {
  if (!order.role || !SWAP_OPEN_STATES.includes(order.statename)) return null;
  const recorded = (await recordedSwapView(db, order.id)) as SwapView | null;
  // A draft not checked out yet has no terms to ask for: its panel links to checkout.
  if (!recorded && order.statename === BUY_STATES.COMPLETE_ORDER_CHECKOUT)
    return { view: null, choices: [], listings: null };
  const read = recorded ?? (await readSwapView(order));
  const view = read === "gone" ? null : read;
  const myMove = isMoveOf(order.actionNeeded, order.role);
  const choosing =
    order.role === "provider" &&
    myMove &&
    (order.statename === SWAP_STATES.PROVIDER_CHOOSE_ITEMS ||
      order.statename === SWAP_STATES.PROVIDER_APPROVE);
  const negotiating =
    myMove &&
    (order.statename === SWAP_STATES.PROVIDER_APPROVE ||
      order.statename === SWAP_STATES.RECEIVER_APPROVE);
  const listings = negotiating ? await sideListings(order) : null;
  const choices = choosing
    ? (listings?.receiver ?? (await swapChoices(db, order.receiverId, order.brandId)))
    : [];
  return { view, choices, listings };
}

/**
 * The swap's terms as its workflow holds them: null when the workflow cannot be asked within `waitMs` (a page
 * waits 5 s; a command as long as a command may take, asking again every second while no worker answers),
 * "gone" when it has no workflow (any more).
 */
async function readSwapView(order: OrderDetail, waitMs = 5_000): Promise<SwapView | null | "gone"> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const client = await getTemporalClient();
      const answer = await withTimeout(
        client.workflow.getHandle(order.workflowId).query(swapViewQuery),
        Math.max(0, Math.min(5_000, deadline - Date.now())),
      );
      if (answer !== "timeout") return answer;
    } catch (err) {
      if (swapCommandError(err)?.code === "wrong_state") return "gone";
      if (!isTemporalUnavailable(err)) {
        console.error(`[swap] view of order ${order.id} failed`, err);
        return null;
      }
    }
    if (Date.now() + 1_000 >= deadline) return null;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** A command's outcome, or the form refused before any command (its message; Conform's reply when a schema refused it). */
export type SwapOutcome =
  | CommandOutcome<SwapCommandResult>
  | {
      ok: false;
      status: number;
      code: "invalid";
      message: string;
      reply?: SubmissionResult<string[]>;
    };

const invalid = (message: string, reply?: SubmissionResult<string[]>): SwapOutcome => ({
  ok: false,
  status: 400,
  code: "invalid",
  message,
  ...(reply ? { reply } : {}),
});
const unavailable: SwapOutcome = {
  ok: false,
  status: 503,
  code: "unavailable",
  message: ORDER_UNAVAILABLE_MESSAGE,
};
const moved: SwapOutcome = {
  ok: false,
  status: commandErrorStatus("wrong_state"),
  code: "wrong_state",
  message: SWAP_ERRORS.wrong_state,
};

/** A reason from one of its list (docs/product/glossary.md, "Reasons"). */
const reasonSchema = (choices: readonly { value: number }[]) =>
  z.object({
    reason: z.coerce
      .number({ invalid_type_error: "Please choose a reason." })
      .int()
      .refine((n) => choices.some((r) => r.value === n), "Please choose a reason."),
  });
export const DeclineSchema = reasonSchema(SWAP_DECLINE_REASONS);
export const CancelSchema = reasonSchema(CANCEL_SHIPMENT_REASONS);
/** Approve's "call it even" box: ticked is "on"; anything else is not ticked. */
export const ApproveSchema = z.object({ call_it_even: z.unknown().transform((v) => v === "on") });

/**
 * The form parsed with `schema` through parseSubmission: its value, or the refusal with the first message and
 * Conform's reply (what the panel shows is that message).
 */
function parsed<S extends z.ZodTypeAny>(
  form: FormData,
  schema: S,
): { value: z.output<S> } | { refused: SwapOutcome } {
  const submission = parseSubmission(form, { schema });
  if (submission.status === "success") return { value: submission.value };
  const reply = submission.reply();
  const first = Object.values(reply.error ?? {}).flat()[0] ?? "Please check the form.";
  return { refused: invalid(first, reply) };
}

/**
 * Whether a swap party may open the RMA wizard: within 48 hours of the delivery of the goods it received
 * (the workflow's window, kept with the order). The RMA itself is app/utils/rma.server.ts's.
 */
export function swapRmaOpen(
  order: Pick<OrderDetail, "role" | "swapWindows">,
  now = Date.now(),
): boolean {
  const until = order.role ? order.swapWindows?.rmaBy : null;
  return typeof until === "string" && now < Date.parse(until);
}

/** units.<listingId>.<size> = n (whole numbers 0-9999) -> chosen sizes per listing; null when malformed. */
function chosenUnits(form: FormData): Map<number, Record<string, number>> | null {
  const out = new Map<number, Record<string, number>>();
  for (const [key, raw] of form.entries()) {
    const m = /^units\.(\d{1,10})\.([^.]{1,20})$/.exec(key);
    if (!m) continue;
    if (typeof raw !== "string" || !/^\d{0,4}$/.test(raw.trim())) return null;
    const n = raw.trim() === "" ? 0 : Number(raw.trim());
    if (n === 0) continue;
    const id = Number(m[1]);
    out.set(id, { ...(out.get(id) ?? {}), [m[2]]: n });
  }
  return out;
}

type LineWrite = { listingId: number | null; variationId: number; sizes: Record<string, number> };
type Modification = { providerLines: LineWrite[]; receiverLines: LineWrite[] };

/** A whole number of units as a form field holds it (0-9999; empty is 0), or null. */
function unitsOf(raw: FormDataEntryValue): number | null {
  if (typeof raw !== "string" || !/^\d{0,4}$/.test(raw.trim())) return null;
  return raw.trim() === "" ? 0 : Number(raw.trim());
}

/**
 * The posted quantities over the swap's terms (ADR 0025): lines.<side>.<index>.<size> sets a size of a line
 * of the swap (lowered, raised, or a size of its listing it did not have); add.<side>.<listingId>.<size> adds
 * units of an active swap listing of that side not in the swap. "invalid" for quantities that are not whole
 * numbers.
 */
function postedSides(
  view: SwapView,
  form: FormData,
  listed: Record<Role, SwapChoice[]>,
): Record<Role, LineWrite[]> | "invalid" {
  const sides: Record<Role, LineWrite[]> = {
    provider: view.provider.lines.map((l) => ({
      listingId: l.listingId,
      variationId: l.variationId as number,
      sizes: { ...l.sizes },
    })),
    receiver: view.receiver.lines.map((l) => ({
      listingId: l.listingId,
      variationId: l.variationId as number,
      sizes: { ...l.sizes },
    })),
  };
  for (const [key, raw] of form.entries()) {
    const line = /^lines\.(provider|receiver)\.(\d{1,3})\.([^.]{1,20})$/.exec(key);
    const add = /^add\.(provider|receiver)\.(\d{1,10})\.([^.]{1,20})$/.exec(key);
    if (!line && !add) continue;
    const n = unitsOf(raw);
    if (n === null) return "invalid";
    if (line) {
      const target = sides[line[1] as Role][Number(line[2])];
      if (target) target.sizes[line[3]] = n;
      continue;
    }
    if (!add || n === 0) continue;
    const side = sides[add[1] as Role];
    const listingId = Number(add[2]);
    let target = side.find((l) => l.listingId === listingId);
    if (!target) {
      // A listing no longer offered keeps its variation unknown: the raise check below refuses it.
      const variationId =
        listed[add[1] as Role].find((c) => c.listingId === listingId)?.variationId ?? 0;
      target = { listingId, variationId, sizes: {} };
      side.push(target);
    }
    target.sizes[add[3]] = (Object.hasOwn(target.sizes, add[3]) ? target.sizes[add[3]] : 0) + n;
  }
  for (const r of ["provider", "receiver"] as const)
    for (const l of sides[r])
      l.sizes = Object.fromEntries(Object.entries(l.sizes).filter(([, n]) => n > 0));
  sides.provider = sides.provider.filter((l) => Object.keys(l.sizes).length > 0);
  sides.receiver = sides.receiver.filter((l) => Object.keys(l.sizes).length > 0);
  return sides;
}

/**
 * The first raise past what a listing still lists (a line's size above its units in the swap, or a line
 * added), as the message the side reads; null when every raise is within its listing.
 */
function pastListed(
  view: SwapView,
  sides: Record<Role, LineWrite[]>,
  listed: Record<Role, SwapChoice[]>,
): string | null {
  // Own entries only: a size named like an Object member ("constructor") is no units.
  const units = (sizes: Record<string, number> | undefined, size: string) =>
    sizes && Object.hasOwn(sizes, size) ? sizes[size] : 0;
  for (const r of ["provider", "receiver"] as const) {
    for (const l of sides[r]) {
      const before = view[r].lines.find((x) => x.listingId === l.listingId)?.sizes;
      const listing = listed[r].find((c) => c.listingId === l.listingId);
      for (const [size, n] of Object.entries(l.sizes)) {
        if (n <= units(before, size)) continue;
        const left = units(listing?.sizes, size);
        if (n > left)
          return `${SWAP_ERRORS.more_than_listed} Size ${size}: ${left} listed, you asked for ${n}.`;
      }
    }
  }
  return null;
}

const sameLines = (a: LineWrite[], b: SwapView["provider"]["lines"]) =>
  JSON.stringify(a.map((l) => [l.listingId, l.sizes])) ===
  JSON.stringify(b.map((l) => [l.listingId, l.sizes]));

/**
 * The modification a form asks for, against the swap's terms as its workflow holds them: the posted
 * quantities and additions, or one line removed. Null when nothing changes; a refusal (with its message) for
 * quantities that are not whole numbers or a raise past the units listed; "unavailable" when the workflow
 * cannot be asked.
 */
async function modifiedLines(
  order: OrderDetail,
  form: FormData | null,
  remove: { side: Role; index: number } | null,
  deadline: number,
): Promise<Modification | null | { refused: SwapOutcome } | "unavailable" | "gone"> {
  // The terms are waited for until the click's deadline (a worker restarting answers in seconds).
  const view = await readSwapView(order, deadline - Date.now());
  // Without the terms a change cannot be told from an approval: nothing is sent.
  if (view === "gone") return "gone";
  if (!view) return "unavailable";
  if (remove) {
    const lines = (r: Role) =>
      view[r].lines
        .filter((_, i) => !(remove.side === r && remove.index === i))
        .map((l) => ({
          listingId: l.listingId,
          variationId: l.variationId as number,
          sizes: l.sizes,
        }));
    const out = { providerLines: lines("provider"), receiverLines: lines("receiver") };
    return out.providerLines.length + out.receiverLines.length <
      view.provider.lines.length + view.receiver.lines.length
      ? out
      : null;
  }
  if (!form) return null;
  const listed = await sideListings(order);
  const sides = postedSides(view, form, listed);
  if (sides === "invalid") return { refused: invalid(SWAP_ERRORS.invalid_units) };
  if (
    sameLines(sides.provider, view.provider.lines) &&
    sameLines(sides.receiver, view.receiver.lines)
  )
    return null;
  const past = pastListed(view, sides, listed);
  if (past) return { refused: invalid(past) };
  return { providerLines: sides.provider, receiverLines: sides.receiver };
}

/**
 * What a command sent after reading the swap's terms may still wait: the rest of the click's COMMAND_TIMEOUT_MS,
 * and at least 5 s (a worker that has just answered the read answers the command in well under that). Without
 * it, a click on terms that waited out an outage waited as long again for the command.
 */
const MIN_COMMAND_AFTER_READ_MS = 5_000;
const restOf = (deadline: number) => Math.max(MIN_COMMAND_AFTER_READ_MS, deadline - Date.now());

/** Runs the panel's command `intent` for the retailer `actor` (a party of the swap). */
export async function handleSwapAction(
  order: OrderDetail,
  form: FormData,
  actor: number,
): Promise<SwapOutcome> {
  const raw = String(form.get("intent") ?? "");
  const deadline = Date.now() + COMMAND_TIMEOUT_MS;
  // "remove:<side>.<index>": the Remove button of one line.
  const intent = raw.startsWith("remove:") ? "remove" : raw;
  const by = { actorRetailerId: actor };
  switch (intent) {
    case "choose": {
      const units = chosenUnits(form);
      if (!units || units.size === 0)
        return invalid("Choose at least one unit from the other retailer's swap listings.");
      const choices = await swapChoices(db, order.receiverId, order.brandId);
      const lines = [];
      for (const [listingId, sizes] of units) {
        const c = choices.find((x) => x.listingId === listingId);
        if (!c || Object.entries(sizes).some(([size, n]) => n > (c.sizes[size] ?? 0)))
          return invalid("These units are no longer available.");
        lines.push({
          listingId,
          variationId: c.variationId,
          sizes,
          unitPriceCents: c.unitPriceCents,
        });
      }
      return sendOrderCommand("swap", order, chooseItemsUpdate, { ...by, lines });
    }
    case "approve": {
      // The quantities of the form: unchanged -> approve; changed -> "Submit Response" (a modification).
      const p = parsed(form, ApproveSchema);
      if ("refused" in p) return p.refused;
      const changed = await modifiedLines(order, form, null, deadline);
      if (changed === "unavailable") return unavailable;
      if (changed === "gone") return moved;
      if (changed && "refused" in changed) return changed.refused;
      if (changed)
        return sendOrderCommand(
          "swap",
          order,
          modifySwapUpdate,
          { ...by, ...changed },
          restOf(deadline),
        );
      return sendOrderCommand(
        "swap",
        order,
        approveSwapUpdate,
        { ...by, callItEven: p.value.call_it_even },
        restOf(deadline),
      );
    }
    case "remove": {
      // One line removed; when that is refused (a side would be left empty) the terms stand: "Summary is restored".
      const target = /^remove:(provider|receiver)\.(\d{1,3})$/.exec(raw);
      if (!target) return invalid(SWAP_SUMMARY_RESTORED);
      const changed = await modifiedLines(
        order,
        null,
        { side: target[1] as Role, index: Number(target[2]) },
        deadline,
      );
      if (changed === "unavailable") return unavailable;
      if (changed === "gone") return moved;
      if (!changed || "refused" in changed) return invalid(SWAP_SUMMARY_RESTORED);
      const out = await sendOrderCommand(
        "swap",
        order,
        modifySwapUpdate,
        { ...by, ...changed },
        restOf(deadline),
      );
      return out.ok || out.code === "unavailable" || out.code === "timeout"
        ? out
        : { ...out, message: SWAP_SUMMARY_RESTORED };
    }
    case "decline": {
      const p = parsed(form, DeclineSchema);
      if ("refused" in p) return p.refused;
      return sendOrderCommand("swap", order, declineSwapUpdate, { ...by, reason: p.value.reason });
    }
    case "call_it_even":
      return sendOrderCommand("swap", order, callItEvenUpdate, by);
    case "accept_decline":
      return sendOrderCommand("swap", order, acceptDeclineUpdate, by);
    case "cancel_shipment": {
      const p = parsed(form, CancelSchema);
      if ("refused" in p) return p.refused;
      return sendOrderCommand("swap", order, cancelSwapShipmentUpdate, {
        ...by,
        reason: p.value.reason,
      });
    }
    case "pay": {
      const card = paymentMethodFromForm(form);
      if (!card.ok) return invalid(Object.values(card.errors)[0] ?? "Please check the card.");
      return sendOrderCommand("swap", order, makePaymentUpdate, {
        ...by,
        paymentMethod: card.paymentMethod,
      });
    }
    default:
      return invalid("Unknown action.");
  }
}
