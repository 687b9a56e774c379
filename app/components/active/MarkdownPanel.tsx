/**
 * The markdown schedule of the seller's sell listing, on its edit page (docs/product/markdowns.md): set or
 * replace (step, every N days, floor, end date), pause, resume, cancel, and the history of its steps. The
 * forms post to the edit page's action (app/utils/markdown.server.ts); they work before the scripts load.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { ErrorList } from "~/components/forms";
import { MarkdownFields } from "./MarkdownFields";
import { MarkdownFormSchema } from "../../../domain/markdown";
import type { MarkdownActionData, MarkdownPanelData } from "~/utils/markdown.server";

const STATUS_WORDS: Record<string, string> = {
  active: "running",
  paused: "paused",
  floor: "at its floor",
  ended: "ended",
};

export function MarkdownPanel({
  listingId,
  panel,
  action,
}: {
  listingId: number;
  panel: MarkdownPanelData;
  action: MarkdownActionData["markdown"] | undefined;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `markdown-${listingId}`,
    lastResult: navigation.state === "idle" ? action?.result : null,
    defaultValue: panel.defaultValue,
    constraint: getZodConstraint(MarkdownFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MarkdownFormSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const submitting = navigation.state === "submitting";
  return (
    <section className="markdown-panel" data-testid="markdown-panel">
      <h2>Markdown schedule</h2>
      {action?.message ? (
        <p className="alert alert-success" role="status" data-testid="markdown-message">
          {action.message}
        </p>
      ) : null}
      {panel.summary ? (
        <p data-testid="markdown-summary">
          {panel.summary} ({STATUS_WORDS[panel.status ?? ""] ?? panel.status})
          {panel.next ? <>. {panel.next}</> : null}
        </p>
      ) : (
        <p className="muted">
          No schedule: the listing sells at the catalogue price. A schedule lowers it on its own.
        </p>
      )}
      {panel.suggestion ? (
        <p className="muted" data-testid="markdown-suggestion">
          {panel.suggestion}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="id" value={listingId} />
        <ErrorList kind="form" testId="markdown-form-errors" errors={form.errors} />
        <MarkdownFields fields={fields} />
        <button
          type="submit"
          name="intent"
          value="markdown"
          className="button"
          disabled={submitting}
        >
          Set schedule
        </button>
      </Form>
      {panel.status === "active" || panel.status === "paused" || panel.summary ? (
        <Form method="post" className="edit-buttons">
          <input type="hidden" name="id" value={listingId} />
          {panel.status === "active" ? (
            <button
              type="submit"
              name="intent"
              value="markdown-pause"
              className="button button-outline"
            >
              Pause
            </button>
          ) : null}
          {panel.status === "paused" ? (
            <button
              type="submit"
              name="intent"
              value="markdown-resume"
              className="button button-outline"
            >
              Resume
            </button>
          ) : null}
          <button
            type="submit"
            name="intent"
            value="markdown-cancel"
            className="button button-danger"
          >
            Remove schedule
          </button>
        </Form>
      ) : null}
      {panel.history.length > 0 ? (
        <ul data-testid="markdown-history">
          {panel.history.map((h) => (
            <li key={h.day}>
              {h.day}: {h.from} → {h.to}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
