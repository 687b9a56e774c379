/**
 * Bulk retailer upload (route name retailer-upload; docs/product/screens.md, "Staff: retailer setup and bulk
 * upload"; ADR 0018): Upload (.xlsx only),
 * Preview (every row with its problems), Submit (after a confirmation that many retailer e-mails may be
 * sent), Summary (created, skipped, failed, with reasons). The stage follows from the URL:
 *   /admin/retailer-upload                      Upload
 *   /admin/retailer-upload?upload=7             Preview (or Summary once submitted)
 *   /admin/retailer-upload?upload=7&confirm=1   the confirmation
 */
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatDateTime } from "../../domain/date-format";
import { RowId } from "../../domain/ids";
import { BULK_UPLOAD_COLUMNS, BULK_UPLOAD_MSG } from "../../domain/retailer-admin";
import { getRetailerUpload, listRecentRetailerUploads } from "../../db/queries/retailer-upload";
import type { RetailerUploadRowJson } from "../../db/schema";
import { ActionError } from "~/components/admin/ActionError";
import { pageTitle } from "~/components/title";
import adminCss from "~/styles/retailer-admin.css";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";
import { retailerUploadAction } from "./admin.retailer-upload.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Retailer upload") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  const url = new URL(request.url);
  const raw = url.searchParams.get("upload");
  if (raw === null) {
    const recent = await listRecentRetailerUploads(db);
    return {
      stage: "upload" as const,
      recent: recent.map((u) => ({
        ...u,
        createdAt: formatDateTime(u.createdAt, getEnv().MARKETPLACE_TZ, { seconds: false }),
      })),
    };
  }
  const id = RowId.safeParse(raw);
  const upload = id.success ? await getRetailerUpload(db, id.data) : null;
  if (!upload)
    throw new Response("No such upload.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const good = upload.rows.filter((r) => r.problems.length === 0).length;
  const base = {
    id: upload.id,
    fileName: upload.fileName,
    total: upload.rows.length,
    good,
    bad: upload.rows.length - good,
  };
  if (upload.status === "submitted" && upload.results) {
    const count = (o: string) => upload.results!.filter((r) => r.outcome === o).length;
    return {
      stage: "summary" as const,
      ...base,
      created: count("created"),
      skipped: count("skipped"),
      failed: count("failed"),
      results: upload.results.filter((r) => r.outcome !== "created"),
      createdIds: upload.results
        .filter((r) => r.outcome === "created")
        .map((r) => r.retailerId ?? 0),
    };
  }
  const newOnes = upload.rows.filter((r) => r.problems.length === 0 && !r.note).length;
  return {
    stage: url.searchParams.get("confirm") === "1" ? ("confirm" as const) : ("preview" as const),
    ...base,
    newOnes,
    rows: upload.rows,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const auth = await requireRetailerAdmin(request);
  return retailerUploadAction(request, auth.user.id);
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export default function RetailerUpload() {
  const d = useLoaderData<typeof loader>() as LoaderData;
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const steps = ["Upload", "Preview", "Submit", "Summary"];
  const current =
    d.stage === "upload" ? 0 : d.stage === "preview" ? 1 : d.stage === "confirm" ? 2 : 3;
  return (
    <section className="page retailer-admin">
      <p>
        <Link to="/admin">← Admin</Link>
      </p>
      <h1>Retailer upload</h1>
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
      <ActionError id="retailer-upload" lastResult={actionData} testId="upload-error" />
      {d.stage === "upload" ? (
        <>
          <Form
            method="post"
            encType="multipart/form-data"
            className="form-stack"
            data-testid="upload-form"
          >
            <input type="hidden" name="intent" value="upload" />
            <label htmlFor="excel_file">Retailers spreadsheet (.xlsx)</label>
            <input
              id="excel_file"
              name="excel_file"
              type="file"
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            />
            <div className="form-actions">
              <button type="submit" className="button" disabled={busy}>
                Upload and preview
              </button>
            </div>
          </Form>
          <p>
            <a href="/admin/retailer-upload-template" download>
              Download the template (.xlsx)
            </a>{" "}
            <span className="muted">
              — columns: {BULK_UPLOAD_COLUMNS.join(", ")}; brands separated by ";".
            </span>
          </p>
          {d.recent.length > 0 ? (
            <>
              <h2>Recent uploads</h2>
              <ul>
                {d.recent.map((u) => (
                  <li key={u.id}>
                    <Link to={`/admin/retailer-upload?upload=${u.id}`}>
                      {u.fileName} ({u.status}, {u.createdAt})
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      ) : null}
      {d.stage === "preview" ? (
        <>
          <p data-testid="preview-counts">
            {d.fileName}: {d.total} rows, {d.good} good, {d.bad} with problems. Rows with problems
            are not created; fix them in the file and upload it again (good rows already created are
            skipped then).
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="submit" />
            <input type="hidden" name="upload" value={d.id} />
            <button type="submit" className="button" disabled={busy || d.good === 0}>
              Submit {d.good} good rows
            </button>{" "}
            <Link to="/admin/retailer-upload">Upload another file</Link>
          </Form>
          <RowsTable rows={d.rows} />
        </>
      ) : null}
      {d.stage === "confirm" ? (
        <div
          className="alert alert-warning"
          role="alertdialog"
          aria-labelledby="confirm-title"
          data-testid="confirm"
        >
          <h2 id="confirm-title">Send welcome e-mails?</h2>
          <p>{BULK_UPLOAD_MSG.confirm}</p>
          <p>
            Up to {d.newOnes} new retailer{d.newOnes === 1 ? "" : "s"} will be created and e-mailed.
          </p>
          <Form method="post" className="form-actions">
            <input type="hidden" name="intent" value="submit" />
            <input type="hidden" name="upload" value={d.id} />
            <input type="hidden" name="confirmed" value="yes" />
            <button type="submit" className="button" disabled={busy}>
              Yes, create the retailers and send the e-mails
            </button>
            <Link to={`/admin/retailer-upload?upload=${d.id}`} className="button button-outline">
              Cancel
            </Link>
          </Form>
        </div>
      ) : null}
      {d.stage === "summary" ? (
        <>
          <div className="summary-counts" data-testid="summary">
            <span>
              Created: <strong data-testid="created">{d.created}</strong>
            </span>
            <span>
              Skipped: <strong data-testid="skipped">{d.skipped}</strong>
            </span>
            <span>
              Failed: <strong data-testid="failed">{d.failed}</strong>
            </span>
          </div>
          {d.results.length > 0 ? (
            <table className="table" data-testid="summary-rows">
              <thead>
                <tr>
                  <th>line</th>
                  <th>outcome</th>
                  <th>reason</th>
                </tr>
              </thead>
              <tbody>
                {d.results.map((r) => (
                  <tr key={r.line} className={r.outcome === "failed" ? "row-bad" : ""}>
                    <td>{r.line}</td>
                    <td>{r.outcome}</td>
                    <td>{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <p>
            <Link to="/admin/retailer-upload">Upload another file</Link> ·{" "}
            <Link to="/manage-retailer?status=active">Retailers</Link>
          </p>
        </>
      ) : null}
    </section>
  );
}

function RowsTable({ rows }: { rows: RetailerUploadRowJson[] }) {
  const shown = ["store_name", "city", "state", "contact_email", "brands"];
  return (
    <div className="table-scroll">
      <table className="table" data-testid="preview-rows">
        <thead>
          <tr>
            <th>line</th>
            {shown.map((c) => (
              <th key={c}>{c}</th>
            ))}
            <th>problems</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.line}
              className={r.problems.length ? "row-bad" : ""}
              data-bad={r.problems.length ? "1" : undefined}
            >
              <td>{r.line}</td>
              {shown.map((c) => (
                <td key={c}>{r.values[c] ?? ""}</td>
              ))}
              <td>
                {r.problems.length ? (
                  <ul className="problems">
                    {r.problems.map((p) => (
                      <li key={p}>{p}</li>
                    ))}
                  </ul>
                ) : (
                  (r.note ?? "ok")
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
