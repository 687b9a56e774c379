/**
 * The retailer's returns (docs/product/screens.md, "RMA wizard"; docs/product/orders.md): who may ask (a party
 * that received goods, within 48 hours of that delivery, no RMA yet), the amount a draft would give back, the
 * pictures' upload, and the request itself: the RMA order written (db/queries/rmas.ts createRma) and its
 * workflow started. The wizard's draft and its steps' checks are app/routes/create-rma.($id).server.ts.
 */
import type { OrderDetail, OrderLineView } from "../../db/queries/order-views/order-detail";
import {
  createRma,
  deleteUnstartedRma,
  RmaRequestRefused,
  rmasOfOrderFor,
  type RmaSide,
  type RmaStart,
} from "../../db/queries/rmas";
import { checkPhoto, MAX_PHOTO_BYTES } from "../../domain/listing-forms";
import { RMA_MAX_PICTURES_PER_ITEM } from "../../domain/reasons";
import {
  receivedGoodsSide,
  rmaAmountYouWillReceive,
  rmaOrderInputOf,
  type RmaOrderInput,
} from "../../domain/rma-money";
import { purchaseRmaOpen } from "../../domain/business-days";
import { RMA_DISPLAY_STATUS } from "../../domain/states";
import { RMA_WORKFLOW_TYPE, rmaWorkflowId } from "../../workflows/rma/contract";
import type { rmaWorkflow } from "../../workflows/rma/workflow";
import { db } from "./db.server";
import { getEnv } from "./env.server";
import { readFormData } from "./form.server";
import { swapRmaOpen } from "./swap.server";
import { getTemporalClient } from "./temporal.server";
import type { RmaDraft, RmaErrors } from "~/utils/rma-draft";
import { cappedPhotoUploadHandler, photosUsable, storePhoto } from "./uploads.server";

export const RMA_WIZARD_MESSAGES = Object.freeze({
  closed: "This order cannot be returned: a return must be requested within 48 hours of delivery.",
  exists: "An RMA already exists for this order.",
  noUnits: "Choose at least one unit to return.",
  tooMany: "You cannot return more units than you received.",
  reason: "Choose a reason for every unit.",
  other: "Please describe the reason.",
  picturesMax: `Up to ${RMA_MAX_PICTURES_PER_ITEM} pictures per item.`,
  contact: "This field is required.",
  email: "Please enter a valid e-mail address.",
  unavailable: "We could not send your RMA right now. Please try again in a moment.",
});

/** The goods lines the viewer received on the order (a sale: the buyer's; a swap: the other side's). */
export function receivedLines(order: OrderDetail): OrderLineView[] {
  if (!order.role) return [];
  const side = receivedGoodsSide(order.ttype === "swap" ? "swap" : "sale", order.role);
  return order.lines.filter((l) => l.type === "goods" && l.side === side && l.quantity > 0);
}

/**
 * Whether the viewer's RMA window on this order is open now, from the read model (the workflow is not asked:
 * ADR 0034): a swap side's within 48 hours of receiving its goods; a purchase's buyer while it is delivered
 * and within 48 hours of the delivery. The order pages' button and the wizard's check.
 */
export function rmaWindowOpen(
  order: Pick<OrderDetail, "ttype" | "role" | "statename" | "deliveredAt" | "swapWindows">,
  now = Date.now(),
): boolean {
  return order.ttype === "swap"
    ? swapRmaOpen(order, now)
    : order.role === "receiver" && purchaseRmaOpen(order.statename, order.deliveredAt, now);
}

/** An RMA of an order the viewer is party to, as the order pages link to it (victim: its own; perpetrator: filed against it). */
export interface MyRma {
  id: number;
  externalId: string;
  displayStatus: string;
  role: RmaSide;
  /** The order's other RMA naming the viewer: a swap whose two sides each filed one (the one filed against it). */
  alsoAgainst?: Omit<MyRma, "alsoAgainst"> | null;
}

/**
 * What the order pages offer about returns (docs/product/orders.md, "RMA"; docs/product/screens.md, "My returns"):
 * a link to the order's RMA for both parties (the victim's own first, else the one filed against the viewer), and
 * the request button while the viewer's window is open and it has no RMA of its own on the order (a swap's side
 * may ask for one although the other side filed one against it). Looked up only once something was delivered:
 * before that there can be none.
 */
export async function rmaOffer(
  order: OrderDetail,
  retailerId: number | null,
): Promise<{ canRma: boolean; myRma: MyRma | null }> {
  const delivered =
    order.deliveredAt !== null || order.shipments.some((s) => s.status === "delivered");
  if (!order.role || retailerId === null || !delivered) return { canRma: false, myRma: null };
  const rmas = await rmasOfOrderFor(db, order.id, retailerId);
  const own = rmas.find((r) => r.role === "victim");
  const shown = own ?? rmas.at(-1);
  const view = (r: (typeof rmas)[number]) => ({
    id: r.id,
    externalId: r.externalId,
    displayStatus: RMA_DISPLAY_STATUS[r.stage] ?? r.stage,
    role: r.role,
  });
  const against = own ? rmas.filter((r) => r.role === "perpetrator").at(-1) : undefined;
  const myRma = shown ? { ...view(shown), alsoAgainst: against ? view(against) : null } : null;
  return { canRma: !own && rmaWindowOpen(order), myRma };
}

/** Whether the viewer may ask for an RMA on this order now; the refusal's message otherwise. */
export async function rmaEligibility(
  order: OrderDetail,
  retailerId: number,
): Promise<{ ok: true } | { ok: false; message: string; rmaId?: number }> {
  const { canRma, myRma } = await rmaOffer(order, retailerId);
  if (myRma?.role === "victim")
    return { ok: false, message: RMA_WIZARD_MESSAGES.exists, rmaId: myRma.id };
  return canRma ? { ok: true } : { ok: false, message: RMA_WIZARD_MESSAGES.closed };
}

const chosen = (d: RmaDraft) => Object.entries(d.lines).filter(([, l]) => l.quantity > 0);

/** What the original order gives an RMA (the settlement's inputs), as the viewer received it. */
function rmaOrderOf(order: OrderDetail, lines: OrderLineView[]): RmaOrderInput {
  return rmaOrderInputOf(order.ttype === "swap" ? "swap" : "sale", lines, {
    feeCents: order.amounts.receiverFeeCents,
    shippingCents: order.amounts.receiverShippingCents,
    totalCents: order.amounts.receiverGrandTotalCents,
  });
}

/** 'Amount You Will Receive' for the draft (domain/rma-money). */
export function draftAmount(order: OrderDetail, lines: OrderLineView[], d: RmaDraft): number {
  const asked = lines
    .filter((l) => (d.lines[l.contributionId]?.quantity ?? 0) > 0)
    .map((l) => ({
      unitPriceCents: l.unitPriceCents,
      requestedQuantity: d.lines[l.contributionId].quantity,
    }));
  return asked.length ? rmaAmountYouWillReceive(rmaOrderOf(order, lines), asked) : 0;
}

/** The pictures step's form: multipart, at most 9 pictures of MAX_PHOTO_BYTES a request (a bigger one is answered beside it). */
export function readPicturesForm(request: Request): Promise<FormData> {
  return readFormData(request, {
    maxBytes: 9 * MAX_PHOTO_BYTES + 256 * 1024,
    maxEntries: 200,
    uploadHandler: cappedPhotoUploadHandler,
  });
}

/** Stores the pictures sent for each chosen line (files photos.<line>), checked by content; the errors per line. */
export async function storeLinePictures(
  form: FormData,
  d: RmaDraft,
  userId: number,
): Promise<RmaErrors> {
  const errors: RmaErrors = {};
  const all = Object.values(d.lines).flatMap((l) => l.pictures);
  if (!(await photosUsable(all, userId)))
    throw new Response("Bad request: unknown pictures.", { status: 400 });
  for (const [id, l] of chosen(d)) {
    const files = form
      .getAll(`photos.${id}`)
      .filter((f): f is File => typeof f !== "string" && !(f.name === "" && f.size === 0));
    if (files.length === 0) continue;
    if (l.pictures.length + files.length > RMA_MAX_PICTURES_PER_ITEM) {
      errors[`p.${id}`] = RMA_WIZARD_MESSAGES.picturesMax;
      continue;
    }
    for (const f of files) {
      const bytes = new Uint8Array(await f.arrayBuffer());
      const c = checkPhoto(f.name, bytes);
      if (!c.ok) {
        errors[`p.${id}`] = `${f.name}: ${c.message}`;
        break;
      }
      l.pictures.push(await storePhoto(bytes, c.type, userId));
    }
  }
  const remove = form.get("remove");
  if (typeof remove === "string")
    for (const l of Object.values(d.lines)) l.pictures = l.pictures.filter((p) => p !== remove);
  return errors;
}

/**
 * Sends the RMA: the RMA order written with its lines (pictures attached) and its workflow started. The
 * refusal's message when the request is not possible (an RMA already exists, units changed).
 */
export async function submitRma(
  order: OrderDetail,
  d: RmaDraft,
  victimId: number,
  userId: number,
): Promise<{ ok: true; rma: RmaStart } | { ok: false; status: number; message: string }> {
  let rma: RmaStart;
  try {
    rma = await createRma(db, {
      orderId: order.id,
      victimId,
      uploaderUserId: userId,
      contact: {
        name: d.contact.contact_name,
        email: d.contact.contact_email,
        phone: d.contact.contact_phone,
        packingSlipName: d.contact.packing_slip_name,
      },
      lines: chosen(d).map(([id, l]) => ({
        sourceId: Number(id),
        quantity: l.quantity,
        reason: l.reason as number,
        reasonOther: l.other || null,
        pictures: l.pictures,
      })),
      workflowIdFor: rmaWorkflowId,
    });
  } catch (err) {
    if (err instanceof RmaRequestRefused)
      return { ok: false, status: err.code === "exists" ? 409 : 400, message: err.message };
    throw err;
  }
  try {
    const client = await getTemporalClient();
    await client.workflow.start<typeof rmaWorkflow>(RMA_WORKFLOW_TYPE, {
      taskQueue: getEnv().TEMPORAL_TASK_QUEUE,
      workflowId: rma.workflowId,
      // Staff's and the return's business days are the marketplace's (docs/product/windows.md, "Time zone").
      args: [{ ...rma, timeZone: getEnv().MARKETPLACE_TZ }],
    });
  } catch (err) {
    // Nothing half-done is kept: the RMA is undone, and the victim may send it again.
    console.error(`[rma] starting the workflow of RMA ${rma.rmaId} failed`, err);
    await deleteUnstartedRma(db, rma.rmaId);
    return { ok: false, status: 503, message: RMA_WIZARD_MESSAGES.unavailable };
  }
  return { ok: true, rma };
}
