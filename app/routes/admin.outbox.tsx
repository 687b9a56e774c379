import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { listOutbox } from "../../db/queries/outbox";
import { undeliveredWebhookEvents } from "../../db/queries/webhooks";
import { formatDateTime, useMarketplaceZone } from "~/components/orders/format";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { requireStaff } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { hideResetTokens } from "~/utils/reset-mail.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Outbox") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/**
 * Staff read the e-mails the app sent (or, without SMTP, kept): newest first; and how many carrier and payment
 * events still wait for their order's workflow (the inbox, docs/decisions/0042-webhook-inbox.md).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const to = new URL(request.url).searchParams.get("to")?.trim() || "";
  const [rows, inbox] = await Promise.all([
    listOutbox(db, { limit: 100, toEmail: to || undefined }),
    undeliveredWebhookEvents(db),
  ]);
  return {
    to,
    inbox: { count: inbox.count, oldest: inbox.oldest?.toISOString() ?? null },
    mails: rows.map((m) => ({
      id: m.id,
      to: m.toEmail,
      subject: m.subject,
      body: hideResetTokens(m.bodyText),
      kind: m.kind,
      status: m.status,
      createdAt: m.createdAt.toISOString(),
    })),
  };
}

export default function AdminOutbox() {
  const { to, mails, inbox } = useLoaderData<typeof loader>();
  const tz = useMarketplaceZone();
  return (
    <section className="page">
      <h1>Outbox</h1>
      <p className="muted">
        E-mails the marketplace sent, newest first. Without SMTP configured they are kept here only.
      </p>
      <p data-testid="webhook-inbox">
        {`Carrier and payment events waiting for delivery to their orders: ${inbox.count}`}
        {inbox.oldest ? ` (oldest received ${formatDateTime(inbox.oldest, tz)})` : ""}
      </p>
      <Form method="get" className="inline-form">
        <label htmlFor="outbox-to">To</label>{" "}
        <input
          id="outbox-to"
          type="search"
          name="to"
          defaultValue={to}
          placeholder="someone@store.com"
        />{" "}
        <button type="submit" className="button button-small">
          Filter
        </button>
      </Form>
      {mails.length === 0 ? <p className="muted">No e-mails.</p> : null}
      {mails.map((m) => (
        <article key={m.id} className="outbox-mail" data-testid="outbox-mail" data-to={m.to}>
          <h2 style={{ fontSize: "1.05rem", margin: 0 }}>{m.subject}</h2>
          <p className="muted" style={{ margin: 0 }}>
            To {m.to} · {formatDateTime(m.createdAt, tz)} · {m.kind} · {m.status}
          </p>
          <pre>{m.body}</pre>
        </article>
      ))}
    </section>
  );
}
