/**
 * /admin/payments-attention (staff with the "Payments needing attention" permission;
 * docs/decisions/0044-payments-needing-attention.md): every money movement held because the provider refused it
 * or it could not be sent (no card on file, no payout account), oldest first: order, retailer, kind, amount,
 * reason, age, attempts; per movement: retry now, record as settled outside the platform (with a note), write off.
 * Below them, the nightly reconciliation's open differences between the ledger and the provider
 * (docs/decisions/0045-nightly-reconciliation.md).
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { heldActionSchema } from "../../domain/held-payments";
import { ErrorList } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { paymentsAttentionAction, paymentsAttentionPage } from "./admin.payments-attention.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Payments needing attention") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export const loader = ({ request }: LoaderFunctionArgs) => paymentsAttentionPage(request);
export const action = ({ request }: ActionFunctionArgs) => paymentsAttentionAction(request);

type Item = Awaited<ReturnType<typeof paymentsAttentionPage>>["items"][number];
type Reply = { paymentId: number | null; result: SubmissionResult<string[]> } | undefined;

export default function PaymentsAttention() {
  const { items, notice, differences } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply;
  return (
    <section className="page">
      <h1>Payments needing attention</h1>
      <p className="muted">
        Penalties, refunds, releases and payouts the payment provider refused, or that could not be
        sent. Each retailer concerned was told what to do; a movement waiting for a card or a payout
        account goes again on its own when they add one.
      </p>
      {notice ? (
        <div className="alert alert-success" role="status" data-testid="held-notice">
          {notice}
        </div>
      ) : null}
      {items.length === 0 ? (
        <p className="muted" data-testid="held-empty">
          Nothing is held.
        </p>
      ) : (
        <table className="table" data-testid="held-payments">
          <thead>
            <tr>
              <th>Order</th>
              <th>Retailer</th>
              <th>Kind</th>
              <th>Amount</th>
              <th>Reason</th>
              <th>Age</th>
              <th>Attempts</th>
              <th>Action</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <HeldRow
                key={i.paymentId}
                item={i}
                lastResult={reply?.paymentId === i.paymentId ? reply.result : undefined}
              />
            ))}
          </tbody>
        </table>
      )}
      <Differences rows={differences} />
    </section>
  );
}

type DifferenceRow = Awaited<ReturnType<typeof paymentsAttentionPage>>["differences"][number];

/** The nightly reconciliation's differences: what the ledger and the provider disagree on, by day. */
function Differences({ rows }: { rows: DifferenceRow[] }) {
  return (
    <>
      <h2>Ledger and provider differ</h2>
      <p className="muted">
        Each night the day&apos;s money movements are checked against the payment provider by the
        key each carries.
      </p>
      {rows.length === 0 ? (
        <p className="muted" data-testid="differences-empty">
          No differences.
        </p>
      ) : (
        <table className="table" data-testid="reconciliation-differences">
          <thead>
            <tr>
              <th>Day</th>
              <th>Difference</th>
              <th>Order</th>
              <th>Retailer</th>
              <th>Kind</th>
              <th>Ledger</th>
              <th>Provider</th>
              <th>Key</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>{d.day}</td>
                <td>{d.difference}</td>
                <td>{d.order ?? "-"}</td>
                <td>{d.retailer ?? "-"}</td>
                <td>{d.kind ?? "-"}</td>
                <td>{d.ledger ?? "-"}</td>
                <td>{d.provider ?? "-"}</td>
                <td>
                  <code>{d.key}</code>
                  {d.providerRef ? <> ({d.providerRef})</> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** The row's buttons: one form, the intent is the button pressed. */
const ACTIONS = [
  { intent: "retry", label: "Retry now" },
  { intent: "settle", label: "Settled outside the platform" },
  { intent: "writeOff", label: "Write off" },
] as const;

function HeldRow({ item, lastResult }: { item: Item; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `held-${item.paymentId}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: heldActionSchema }),
    shouldValidate: "onSubmit",
  });
  const note = (fields as unknown as Record<string, { errors?: string[] }>).note;
  return (
    <tr data-testid="held-payment" data-payment={item.paymentId}>
      <td>{item.order ?? "(order removed)"}</td>
      <td>{item.retailer}</td>
      <td>{item.kind}</td>
      <td>{item.amount}</td>
      <td>{item.reason}</td>
      <td>{item.age}</td>
      <td>{item.attempts}</td>
      <td>
        <Form method="post" {...getFormProps(form)} className="form-stack">
          <ErrorList kind="form" errors={form.errors} />
          <input type="hidden" name="paymentId" value={item.paymentId} />
          <label htmlFor={`held-note-${item.paymentId}`}>Note</label>
          <textarea id={`held-note-${item.paymentId}`} name="note" rows={2} maxLength={500} />
          <ErrorList errors={note?.errors} name="note" />
          <div className="inline-form">
            {ACTIONS.map((a) => (
              <button
                key={a.intent}
                type="submit"
                name="intent"
                value={a.intent}
                className={`button button-small${a.intent === "retry" ? "" : " button-outline"}`}
                disabled={navigation.state !== "idle"}
              >
                {a.label}
              </button>
            ))}
          </div>
        </Form>
      </td>
    </tr>
  );
}
