/**
 * /rate/:id (docs/product/screens.md, "Rating"): the buyer confirms the
 * received package (action 222) and rates the order: four criteria (condition of items, care in packaging,
 * timeliness of response, overall experience), 1 to 5 stars each, and comments. The modal is titled
 * "Rate this Transaction"; on success "Rating saved!" shows, and after 2 s the retailer goes home (staff:
 * /admin). The "request RMA" button shows only within 48 hours of delivery (the RMA itself: a later issue).
 * Both commands are updates on the order's buy workflow (confirmReceived, rateOrder). In a swap each side
 * confirms and rates the goods it received, once the other side's parcel is delivered (confirmReceived and
 * rateSwap on the swap workflow).
 */
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import {
  Link,
  useActionData,
  useLoaderData,
  useNavigate,
  useNavigation,
  useSearchParams,
} from "@remix-run/react";
import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { useEffect } from "react";
import { z } from "zod";
import { getOrderDetail, type OrderDetail } from "../../db/queries/order-views/order-detail";
import { RATE_THIS_TRANSACTION } from "../../domain/messages";
import { ACTION } from "../../domain/action-codes";
import { confirmReceivedUpdate, rateOrderUpdate } from "../../workflows/buy/contract";
import { confirmSwapReceivedUpdate, rateSwapUpdate } from "../../workflows/swap/contract";
import { ErrorList } from "~/components/forms";
import { RmaOffer } from "~/components/rma/RmaOffer";
import ordersCss from "~/components/orders/orders.css";
import { ReceivedOrder } from "~/components/orders/ReceivedOrder";
import { ConfirmReceived, RatingDialog, RatingSavedDialog } from "~/components/orders/RatingDialog";
import { RatingSchema } from "~/components/orders/schemas";
import { pageTitle } from "~/components/title";
import { readFormData, requireRetailer } from "~/utils/auth.server";
import { formError, parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { rmaOffer } from "~/utils/rma.server";
import { sendOrderCommand } from "~/utils/temporal.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle(RATE_THIS_TRANSACTION) }];

/** After the success modal (2000 ms). */
export const RATING_SUCCESS_DELAY_MS = 2000;

async function load(request: Request, idRaw: string | undefined) {
  const auth = await requireRetailer(request);
  if (!idRaw || !/^\d{1,9}$/.test(idRaw)) throw new Response("Not found", { status: 404 });
  const order = await getOrderDetail(db, Number(idRaw), {
    retailerId: auth.retailer.id,
    isStaff: auth.user.isStaff,
  });
  if (!order || !order.role) throw new Response("Not found", { status: 404 });
  return { auth, order };
}

/** A swap side rates what it received: the other side's parcel, delivered, within the side's rating window. */
function swapRating(order: OrderDetail, now = Date.now()) {
  const incoming = order.shipments.filter((x) => x.senderSide !== order.role).at(-1) ?? null;
  const delivered = incoming?.status === "delivered";
  const ratingBy = order.swapWindows?.ratingBy ?? null;
  return { delivered, open: delivered && ratingBy !== null && now < Date.parse(ratingBy) };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, order } = await load(request, params.id);
  const myRating = order.ratings.find((r) => r.raterId === auth.retailer.id) ?? null;
  const homePath = auth.user.isStaff ? "/admin" : "/";
  if (order.ttype === "swap") {
    const w = swapRating(order);
    const received = order.actions.some(
      (x) => x.code === ACTION.RECEIVER_CONFIRM_ORDER && x.role === order.role,
    );
    return {
      order,
      delivered: w.delivered,
      canRate: w.open && !myRating,
      myRating,
      received,
      ...(await rmaOffer(order, auth.retailer.id)),
      homePath,
    };
  }
  // Only the party that received goods rates (in a purchase, the buyer).
  if (order.role !== "receiver") throw redirect(`/transaction/${order.ttype}/${order.id}`);
  const rma = await rmaOffer(order, auth.retailer.id);
  const delivered = order.statename === "delivered" || order.statename === "completed";
  return {
    order,
    delivered,
    canRate: order.statename === "delivered" && !myRating,
    myRating,
    received: order.actions.some((x) => x.code === ACTION.RECEIVER_CONFIRM_ORDER),
    ...rma,
    homePath,
  };
}

/** The action's answer: Conform's reply, tagged with the form it answers (the rating modal, or the page's buttons). */
export type RateActionData = {
  intent: string;
  result: SubmissionResult<string[]>;
  message?: string;
  redirectTo?: string;
};

const IntentSchema = z.object({ intent: z.enum(["confirm_received", "rate"]) });

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth, order } = await load(request, params.id);
  const swap = order.ttype === "swap";
  const answer = (r: RateActionData, status = 200) => data<RateActionData>(r, { status });
  if (!swap && order.role !== "receiver")
    return answer(
      { intent: "", result: formError("Only the buying retailer can rate this order.") },
      403,
    );
  const form = await readFormData(request);
  const chosen = parseSubmission(form, { schema: IntentSchema });
  if (chosen.status !== "success")
    return answer({ intent: "", result: chosen.reply({ formErrors: ["Unknown action."] }) }, 400);
  const actor = auth.retailer.id;
  if (chosen.value.intent === "confirm_received") {
    const out = swap
      ? await sendOrderCommand("swap", order, confirmSwapReceivedUpdate, { actorRetailerId: actor })
      : await sendOrderCommand("buy", order, confirmReceivedUpdate, { actorRetailerId: actor });
    if (!out.ok)
      return answer(
        { intent: "confirm_received", result: chosen.reply({ formErrors: [out.message] }) },
        out.status,
      );
    return answer({
      intent: "confirm_received",
      result: chosen.reply(),
      message: "Thank you: the package is confirmed as received.",
    });
  }
  const submission = parseSubmission(form, { schema: RatingSchema });
  if (submission.status !== "success") {
    const first =
      Object.values(submission.error ?? {}).flat()[0] ??
      "Please rate every criterion with 1 to 5 stars.";
    return answer({ intent: "rate", result: submission.reply({ formErrors: [first] }) }, 400);
  }
  const v = submission.value;
  const rating = {
    actorRetailerId: actor,
    stars: {
      condition: v.condition,
      packaging: v.packaging,
      timeliness: v.timeliness,
      overall: v.overall,
    },
    comments: v.comments ?? "",
  };
  const out = swap
    ? await sendOrderCommand("swap", order, rateSwapUpdate, rating)
    : await sendOrderCommand("buy", order, rateOrderUpdate, rating);
  if (!out.ok)
    return answer(
      { intent: "rate", result: submission.reply({ formErrors: [out.message] }) },
      out.status,
    );
  return answer({
    intent: "rate",
    result: submission.reply(),
    redirectTo: auth.user.isStaff ? "/admin" : "/",
  });
}

export default function RateTransaction() {
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>();
  const navigate = useNavigate();
  const navigation = useNavigation();
  // The rating modal is open at ?rate=1: a link, so it opens with or without JavaScript.
  const [searchParams] = useSearchParams();
  const open = searchParams.get("rate") === "1";
  const o = d.order;
  const rated = a?.intent === "rate" ? a.result : null;
  const saved = rated?.status === "success" && a?.redirectTo ? a.redirectTo : null;

  useEffect(() => {
    if (saved) {
      const t = window.setTimeout(() => navigate(saved), RATING_SUCCESS_DELAY_MS);
      return () => window.clearTimeout(t);
    }
  }, [saved, navigate]);

  const [form, fields] = useForm({
    id: "rate-order",
    lastResult: navigation.state === "idle" ? rated : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RatingSchema }),
    shouldValidate: "onSubmit",
  });
  const [page] = useForm({
    id: "rate-page",
    lastResult: a && a.intent !== "rate" ? a.result : null,
  });
  const showModal = (open || rated?.status === "error") && !saved;
  const canConfirm =
    d.delivered &&
    !d.received &&
    (o.statename === "delivered" || (o.ttype === "swap" && o.statename === "in_route"));

  return (
    <section className="page" data-testid="rate-page">
      <ReceivedOrder o={o} />
      <ErrorList kind="form" testId="rate-error" errors={page.errors} />
      {a?.message ? (
        <div className="alert alert-success" role="status">
          {a.message}
        </div>
      ) : null}
      {!d.delivered ? (
        <p className="muted">You can confirm and rate once the package is delivered.</p>
      ) : null}
      <div className="form-actions">
        {canConfirm && !showModal ? <ConfirmReceived /> : null}
        <RmaOffer orderId={o.id} canRma={d.canRma} myRma={d.myRma} />
        {d.canRate ? (
          <Link
            to="?rate=1"
            replace
            preventScrollReset
            className="button"
            data-testid="open-rating"
          >
            {RATE_THIS_TRANSACTION}
          </Link>
        ) : null}
      </div>
      {d.myRating ? (
        <p data-testid="already-rated">You rated this order {d.myRating.overall} of 5.</p>
      ) : null}
      {showModal ? (
        <RatingDialog
          form={form}
          fields={fields}
          message={a?.message}
          confirmErrors={a?.intent === "confirm_received" ? page.errors : null}
          canConfirm={canConfirm}
          submitting={navigation.state === "submitting"}
        />
      ) : null}
      {saved ? <RatingSavedDialog to={saved} /> : null}
    </section>
  );
}
