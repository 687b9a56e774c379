/**
 * /admin/payments-attention (staff with the "Payments needing attention" permission;
 * docs/decisions/0044-payments-needing-attention.md): every money movement held because the provider refused it
 * or it could not be sent (no card on file, no payout account), oldest first: order, retailer, kind, amount,
 * reason, age, attempts; per movement: retry now, record as settled outside the platform (with a note), write off.
 * Below them, the nightly reconciliation's open differences between the ledger and the provider
 * (docs/decisions/0045-nightly-reconciliation.md), each resolved by staff with a note, and the latest resolved
 * with who, when and why (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md).
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
import { resolveDifferenceSchema } from "../../domain/reconciliation";
import { ErrorList } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { paymentsAttentionAction, paymentsAttentionPage } from "./admin.payments-attention.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Payments needing attention") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export const loader = ({ request }: LoaderFunctionArgs) => paymentsAttentionPage(request);
export const action = ({ request }: ActionFunctionArgs) => paymentsAttentionAction(request);

type Item = Awaited<ReturnType<typeof paymentsAttentionPage>>["items"][number];
type Reply =
  | {
      paymentId: number | null;
      differenceId: number | null;
      result: SubmissionResult<string[]>;
    }
  | undefined;

export default function PaymentsAttention() {
  const { items, notice, differences, resolved } = useLoaderData<typeof loader>();
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
      <Differences rows={differences} reply={reply} />
      <ResolvedDifferences rows={resolved} />
    </section>
  );
}

type DifferenceItem = Awaited<ReturnType<typeof paymentsAttentionPage>>["differences"][number];
type ResolvedItem = Awaited<ReturnType<typeof paymentsAttentionPage>>["resolved"][number];

/** A difference's cells, shared by the open and the resolved tables. */
function DifferenceCells({ d }: { d: DifferenceItem }) {
  return (
    <>
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
    </>
  );
}

const DIFFERENCE_HEADS = [
  "Day",
  "Difference",
  "Order",
  "Retailer",
  "Kind",
  "Ledger",
  "Provider",
  "Key",
] as const;

/** The nightly reconciliation's open differences: what the ledger and the provider disagree on, by day. */
function Differences({ rows, reply }: { rows: DifferenceItem[]; reply: Reply }) {
  return (
    <>
      <h2>Ledger and provider differ</h2>
      <p className="muted">
        Each night the day&apos;s money movements are checked against the payment provider by the
        key each carries. Once you have found out why one differs and put it right, resolve it with
        a note saying what you found.
      </p>
      {rows.length === 0 ? (
        <p className="muted" data-testid="differences-empty">
          No differences.
        </p>
      ) : (
        <table className="table" data-testid="reconciliation-differences">
          <thead>
            <tr>
              {DIFFERENCE_HEADS.map((h) => (
                <th key={h}>{h}</th>
              ))}
              <th>Action</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <DifferenceRow
                key={d.id}
                d={d}
                lastResult={reply?.differenceId === d.id ? reply.result : undefined}
              />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function DifferenceRow({
  d,
  lastResult,
}: {
  d: DifferenceItem;
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `difference-${d.id}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resolveDifferenceSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <tr data-testid="reconciliation-difference" data-difference={d.id}>
      <DifferenceCells d={d} />
      <td>
        <Form method="post" {...getFormProps(form)} className="form-stack">
          <ErrorList kind="form" errors={form.errors} />
          <input type="hidden" name="differenceId" value={d.id} />
          <label htmlFor={`difference-note-${d.id}`}>Note</label>
          <textarea id={`difference-note-${d.id}`} name="note" rows={2} maxLength={500} />
          <ErrorList errors={fields.note.errors} name="note" />
          <button
            type="submit"
            name="intent"
            value="resolveDifference"
            className="button button-small"
            disabled={navigation.state !== "idle"}
          >
            Resolve
          </button>
        </Form>
      </td>
    </tr>
  );
}

/** The latest differences staff resolved: who, when and the note. */
function ResolvedDifferences({ rows }: { rows: ResolvedItem[] }) {
  if (rows.length === 0) return null;
  return (
    <>
      <h3>Resolved lately</h3>
      <table className="table" data-testid="resolved-differences">
        <thead>
          <tr>
            {DIFFERENCE_HEADS.map((h) => (
              <th key={h}>{h}</th>
            ))}
            <th>Resolved</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.id} data-testid="resolved-difference" data-difference={d.id}>
              <DifferenceCells d={d} />
              <td>
                {d.resolvedAt} by {d.resolvedBy ?? "a removed user"}: {d.note}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
