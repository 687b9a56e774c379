/**
 * An order's conversation (ADR 0027; docs/product/screens.md, "Messages on an order"), on the order page, the
 * RMA page and /messages/:kind/:id: the messages oldest first, each with its author (You, retailer-00{id}, or
 * Staff, marked) and time, as plain text; then the form, posted to /messages/:kind/:id by a fetcher (the page
 * stays; its data reloads with the new message). A refusal shows its reason under the field. Without scripts the
 * form posts as a document to /messages/:kind/:id, whose page shows the answer the same way (`lastResult`).
 */
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ErrorList } from "~/components/forms";
import { formatDateTime, useMarketplaceZone } from "~/components/orders/format";

export type ConversationView = {
  postTo: string;
  maxLength: number;
  messages: {
    id: number;
    author: string;
    mine: boolean;
    isStaff: boolean;
    body: string;
    createdAt: string;
  }[];
};

export function Conversation({
  c,
  staffViewer = false,
  lastResult,
}: {
  c: ConversationView;
  staffViewer?: boolean;
  /**
   * The post's answer when the page is its document answer (/messages/:kind/:id after a post without
   * scripts): the reason under the field and the text back in it, as the fetcher's answer shows them.
   */
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const tz = useMarketplaceZone();
  const fetcher = useFetcher<SubmissionResult<string[]>>();
  const [form, fields] = useForm({
    id: `messages-${c.postTo}`,
    lastResult: fetcher.state === "idle" ? (fetcher.data ?? lastResult) : null,
  });
  const body = fields.body;
  const typed = useTypedLength(body.key);
  return (
    <section
      className="order-panel conversation"
      data-testid="conversation"
      aria-labelledby="conversation-title"
    >
      <h2 id="conversation-title">Messages</h2>
      <p className="muted">
        {staffViewer
          ? "Both retailers read what you post here, marked as from staff."
          : "Talk to the other retailer about this order. Both of you stay anonymous: contact details (e-mail addresses, phone numbers, web addresses, your store's or contacts' names and addresses) are not sent."}
      </p>
      {c.messages.length === 0 ? (
        <p data-testid="conversation-empty">No messages yet.</p>
      ) : (
        <ol className="messages" data-testid="messages">
          {c.messages.map((m) => (
            <li
              key={m.id}
              className={`message${m.mine ? " message-mine" : ""}${m.isStaff ? " message-staff" : ""}`}
              data-testid="message"
              data-author={m.author}
              data-staff={m.isStaff ? "1" : undefined}
            >
              <div className="message-meta muted">
                <strong data-testid="message-author">{m.author}</strong>
                {m.isStaff ? (
                  <span className="pill" data-testid="message-staff">
                    Staff
                  </span>
                ) : null}{" "}
                · {formatDateTime(m.createdAt, tz, { seconds: false })}
              </div>
              <p
                className="message-body"
                data-testid="message-body"
                style={{ whiteSpace: "pre-wrap" }}
              >
                {m.body}
              </p>
            </li>
          ))}
        </ol>
      )}
      <fetcher.Form
        method="post"
        action={c.postTo}
        {...getFormProps(form)}
        data-testid="message-form"
      >
        <ErrorList kind="form" errors={form.errors} testId="message-form-error" />
        <div className={`field${body.errors?.length ? " field-invalid" : ""}`}>
          <label htmlFor={body.id}>Your message</label>
          <textarea
            {...getTextareaProps(body)}
            key={body.key}
            rows={3}
            onInput={(e) => typed.set(e.currentTarget.value.length)}
            data-testid="message-input"
          />
          <CharacterCount length={typed.length} max={c.maxLength} />
          <ErrorList id={body.errorId} errors={body.errors} name="body" testId="message-error" />
        </div>
        <button
          type="submit"
          className="button"
          disabled={fetcher.state !== "idle"}
          data-testid="message-send"
        >
          {staffViewer ? "Post as staff" : "Send"}
        </button>
      </fetcher.Form>
    </section>
  );
}

/**
 * The characters typed so far (counted as they are typed or pasted), once scripts run; a new form after a
 * send (a new key) starts again at 0.
 */
function useTypedLength(key: string | undefined) {
  const [length, set] = useState<number | null>(null);
  useEffect(() => set(0), [key]);
  return { length, set };
}

/**
 * How much of the limit is used (docs/product/screens.md, "Messages on an order"): nothing is cut, a text over
 * the limit says by how much; the server refuses it with its own message.
 */
function CharacterCount({ length, max }: { length: number | null; max: number }) {
  if (length === null) return null;
  const over = length - max;
  return (
    <p
      className={over > 0 ? "field-error" : "muted"}
      aria-live="polite"
      data-testid="message-count"
    >
      {length} / {max} characters
      {over > 0 ? ` (${over} too many: shorten it before you send it)` : ""}
    </p>
  );
}
