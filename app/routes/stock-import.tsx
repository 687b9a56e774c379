/**
 * Stock file import (docs/product/screens.md, "Stock file import"; ADR 0029), beside the "List a style"
 * wizard: Upload (a .csv or .xlsx, optionally "my whole surplus"), Columns (chosen once, remembered),
 * Preview (each row's match and what it will do), Results. The stage follows from the URL:
 *   /stock-import              Upload, with the recent imports
 *   /stock-import?import=7     Columns, Preview or Results of that import (another retailer's: 404)
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { STOCK_FIELD_LABELS, STOCK_FIELDS, STOCK_IMPORT_LIMITS } from "../../domain/stock-import";
import { ActionError } from "~/components/admin/ActionError";
import { ImportRows } from "~/components/stock-import/ImportRows";
import { pageTitle } from "~/components/title";
import { requireRetailer } from "~/utils/auth.server";
import { stockImportAction, stockImportLoader } from "./stock-import.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Import a stock file") }];

export async function loader({ request }: LoaderFunctionArgs) {
  return stockImportLoader(request, await requireRetailer(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return stockImportAction(request, await requireRetailer(request));
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export default function StockImport() {
  const d = useLoaderData<typeof loader>() as LoaderData;
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const steps = ["Upload", "Columns", "Preview", "Results"];
  const current = { upload: 0, mapping: 1, preview: 2, results: 3 }[d.stage];
  return (
    <section className="page stock-import">
      <p>
        <Link to="/addlisting/">← List a style</Link>
      </p>
      <h1>Import a stock file</h1>
      <ol className="steps" aria-label="Steps">
        {steps.map((s, i) => (
          <li
            key={s}
            aria-current={i === current ? "step" : undefined}
            className={i === current ? "active" : ""}
          >
            {s}
          </li>
        ))}
      </ol>
      <ActionError id="stock-import" lastResult={actionData} testId="import-error" />
      {!d.hasPayout ? (
        <p className="alert alert-warning" data-testid="payout-note">
          Your new listings stay hidden from other retailers until you set up your payout details in{" "}
          <Link to="/settings">Settings</Link>.
        </p>
      ) : null}
      {d.stage === "upload" ? (
        <>
          <Form
            method="post"
            encType="multipart/form-data"
            className="form-stack"
            data-testid="upload-form"
          >
            <input type="hidden" name="intent" value="upload" />
            <label htmlFor="file">Stock file (.csv or .xlsx)</label>
            <input id="file" name="file" type="file" accept=".csv,.xlsx,text/csv" />
            <label className="checkbox">
              <input type="checkbox" name="wholeSurplus" /> This file is my whole surplus: withdraw
              my listings that are not in it
            </label>
            <div className="form-actions">
              <button type="submit" className="button" disabled={busy}>
                Upload and preview
              </button>
            </div>
          </Form>
          <p>
            Download the template: <a href="/stock-import-template?format=csv">.csv</a> ·{" "}
            <a href="/stock-import-template?format=xlsx">.xlsx</a>{" "}
            <span className="muted">
              — one line per style and size: product code or UPC/EAN, size, units, and optionally
              price, listing type (sell or swap), reason and a markdown schedule
              (step/days/floor[/end date], a percent with %, else dollars: 10%/7/60% or
              $2.50/7/$24.00/2026-12-31). At most{" "}
              {STOCK_IMPORT_LIMITS.maxRows.toLocaleString("en-US")} lines.
            </span>
          </p>
          {d.recent.length > 0 ? (
            <>
              <h2>Recent imports</h2>
              <ul data-testid="recent-imports">
                {d.recent.map((u) => (
                  <li key={u.id}>
                    <Link to={`/stock-import?import=${u.id}`}>
                      #{u.id} {u.fileName}
                    </Link>{" "}
                    ({u.status}
                    {u.wholeSurplus ? ", whole surplus" : ""}, {u.createdAt} UTC)
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      ) : null}
      {d.stage === "mapping" ? (
        <Form method="post" className="form-stack" data-testid="mapping-form">
          <p>
            Which column of <strong>{d.fileName}</strong> holds what? Your choice is remembered for
            your next files.
          </p>
          <input type="hidden" name="intent" value="map" />
          <input type="hidden" name="import" value={d.id} />
          {STOCK_FIELDS.map((f) => (
            <div className="field" key={f}>
              <label htmlFor={`map-${f}`}>{STOCK_FIELD_LABELS[f]}</label>
              <select id={`map-${f}`} name={f} defaultValue={d.mapping[f] ?? ""}>
                <option value="">—</option>
                {d.headers.map((h) => (
                  <option key={h} value={h}>
                    {h}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              Preview
            </button>
          </div>
        </Form>
      ) : null}
      {d.stage === "preview" ? <Preview d={d} busy={busy} /> : null}
      {d.stage === "results" ? (
        <>
          <p data-testid="results-counts">{counts(d.rows)}</p>
          <ImportRows rows={d.rows} />
          <p>
            <Link to="/stock-import">Import another file</Link> ·{" "}
            <Link to="/active/listings">My listings</Link>
          </p>
        </>
      ) : null}
    </section>
  );
}

function counts(rows: { action: string }[]): string {
  const n = (a: string) => rows.filter((r) => r.action === a).length;
  return `New: ${n("create")} · Updated: ${n("update")} · Withdrawn: ${n("withdraw")} · Unchanged: ${n("unchanged")} · Kept: ${n("kept")} · Refused: ${n("refused")} · Skipped: ${n("skipped")}`;
}

function Preview({ d, busy }: { d: Extract<LoaderData, { stage: "preview" }>; busy: boolean }) {
  return (
    <>
      <p data-testid="preview-counts">
        {d.fileName}
        {d.wholeSurplus ? " (whole surplus)" : ""}: {counts(d.rows)}. Refused lines are not
        imported: fix them in the file and upload it again (lines already imported are then
        unchanged).
      </p>
      <Form method="post" id="confirm-form" className="form-actions">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="import" value={d.id} />
        <button type="submit" className="button" disabled={busy || d.busy}>
          Confirm the import
        </button>{" "}
        <Link to="/stock-import">Upload another file</Link>
      </Form>
      <ImportRows rows={d.rows} formId="confirm-form" />
    </>
  );
}
