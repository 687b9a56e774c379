import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { useForm } from "@conform-to/react";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  MAX_IMAGES_PER_ROW,
  UNSAVED_UPLOAD_DAYS,
  UPLOAD_ERROR_FLAG,
} from "../../domain/catalogue-upload";
import { RowId } from "../../domain/ids";
import { formatCents } from "../../domain/money";
import { RESOURCES } from "../../domain/resources";
import { chooserOptions, labelsFor } from "../../db/queries/admin-resources";
import { uploadLineEntries } from "../../db/queries/catalogue-entries";
import { getCollectionUpload, listCollectionUploads } from "../../db/queries/collection-uploads";
import { CollectionPicker } from "~/components/admin/resources/CollectionPicker";
import { ErrorList } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { db } from "~/utils/db.server";
import { forbidden, mayManage, notFound, requirePermission } from "~/utils/permissions.server";
import { collectionUploadAction } from "./manage-brand.uploads.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Collection Uploads") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/** Staff with the brand and product permissions; the brand, collection (of that brand) and upload of the URL. */
async function context(request: Request) {
  const ctx = await requirePermission(request, "brand");
  if (!mayManage(ctx, "product")) throw forbidden(RESOURCES.product.plural);
  const url = new URL(request.url);
  const id = (k: string) => {
    const v = url.searchParams.get(k);
    if (v === null || v === "") return null;
    const p = RowId.safeParse(v);
    if (!p.success) throw notFound();
    return p.data;
  };
  const brandId = id("brand");
  if (brandId === null) throw redirect("/manage-brand/choose");
  const collections = await chooserOptions(db, "collection", {
    filters: { brand: String(brandId) },
    limit: 1000,
  });
  const collectionId = id("collection");
  if (collectionId !== null && !collections.some((c) => c.id === collectionId)) throw notFound();
  return { ctx, brandId, collections, collectionId, uploadId: id("upload") };
}

/** Collection Uploads (docs/product/screens.md, "Staff: collection uploads"): Load a .zip, pick it, update preview, save products. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { brandId, collections, collectionId, uploadId } = await context(request);
  const brandName = (await labelsFor(db, "brand", [brandId]))[brandId];
  if (brandName === undefined) throw notFound();
  const uploads = collectionId ? await listCollectionUploads(db, collectionId) : [];
  const upload =
    collectionId && uploadId ? await getCollectionUpload(db, collectionId, uploadId) : null;
  if (uploadId && !upload) throw notFound();
  // A saved upload's lines whose product code was new to the brand: catalogue entries staff validate.
  const entries = upload?.status === "saved" ? await uploadLineEntries(db, upload.id) : [];
  return {
    brandId,
    brandName,
    collections,
    collectionId,
    uploads: uploads.map((u) => ({
      id: u.id,
      fileName: u.fileName,
      status: u.status,
      rowCount: u.rowCount,
    })),
    preview: upload
      ? {
          id: upload.id,
          status: upload.status,
          fileName: upload.fileName,
          rows: upload.rows.map((r) => ({
            ...r,
            price: r.priceCents === null ? "—" : formatCents(r.priceCents),
            imageUrls: r.images.map((n) => upload.images[n]),
            validation:
              entries.find((e) => e.line === r.line)?.resolution ??
              (entries.some((e) => e.line === r.line) ? "waiting" : null),
          })),
          faults: upload.rows.filter((r) => r.problems.length > 0).length,
        }
      : null,
    done: new URL(request.url).searchParams.get("done"),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { ctx, brandId, collectionId, uploadId } = await context(request);
  return collectionUploadAction(request, {
    brandId,
    collectionId,
    uploadId,
    uploadedBy: ctx.user.id,
  });
}

/** What staff decided about a saved line's new product code (Validation → Products). */
const VALIDATION_STATES: Record<string, string> = {
  waiting: "waiting for validation",
  validated: "validated",
  matched: "matched to another product",
  rejected: "rejected",
};

export default function CollectionUploads() {
  const d = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm<{ collection: string; file: File; upload: string }>({
    id: "collection-uploads",
    lastResult,
  });
  const busy = useNavigation().state !== "idle";
  // The errors of the current answer only (after a redirect there is none).
  const err = (field: "collection" | "file" | "upload") =>
    lastResult ? (
      <ErrorList kind="list" errors={fields[field].errors} testId={`error-${field}`} />
    ) : null;
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link> /{" "}
        <Link to={`/manage-brand/info?brand=${d.brandId}`}>Brand admin: {d.brandName}</Link>
      </p>
      <h1>Collection Uploads</h1>
      {d.done === "saved" ? (
        <p className="alert alert-success" role="status">
          Products saved.
        </p>
      ) : null}
      {lastResult ? <ErrorList kind="form" errors={form.errors} /> : null}
      <CollectionPicker
        id="up-collection"
        brandId={d.brandId}
        collectionId={d.collectionId}
        collections={d.collections}
      />
      {err("collection")}
      {d.collectionId ? (
        <>
          <h2>Load Folder</h2>
          <p className="muted">
            A .zip holding one spreadsheet (.xlsx or .csv: sku, display_name, description, color,
            price, sizes, image1 to image
            {MAX_IMAGES_PER_ROW}, barcodes: UPC-A, EAN-13 or EAN-8) and the .jpg / .png pictures it
            names; 15 MB at most. An upload not saved within {UNSAVED_UPLOAD_DAYS} days is discarded
            with its pictures.
          </p>
          <Form
            method="post"
            encType="multipart/form-data"
            className="inline-form"
            data-testid="load-form"
            key={`${d.preview?.id ?? ""}-${lastResult ? Object.values(lastResult.error ?? {}).join() : ""}`}
          >
            <input type="hidden" name="intent" value="load" />
            <input
              type="file"
              name="file"
              accept=".zip,application/zip"
              aria-label="Folder (.zip)"
            />{" "}
            <button type="submit" className="button button-small" disabled={busy}>
              Load Folder
            </button>
          </Form>
          {err("file")}
          <Form method="get" className="inline-form" data-testid="pick-form">
            <input type="hidden" name="brand" value={d.brandId} />
            <input type="hidden" name="collection" value={d.collectionId} />
            <label htmlFor="up-upload">Folder id</label>{" "}
            <select id="up-upload" name="upload" defaultValue={d.preview?.id ?? ""}>
              <option value="">Pick a folder…</option>
              {d.uploads.map((u) => (
                <option key={u.id} value={u.id}>
                  #{u.id} {u.fileName} ({u.rowCount} rows, {u.status})
                </option>
              ))}
            </select>{" "}
            <button type="submit" className="button button-small">
              update preview
            </button>
          </Form>
        </>
      ) : null}
      {d.preview ? (
        <>
          <h2>
            Preview of #{d.preview.id} {d.preview.fileName}
          </h2>
          {d.preview.faults > 0 ? (
            <p className="alert alert-danger" role="alert" data-testid="upload-flag">
              {UPLOAD_ERROR_FLAG} <a href="#row-faults">({d.preview.faults} rows)</a>
            </p>
          ) : null}
          <table className="table" data-testid="preview">
            <thead>
              <tr>
                <th>Line</th>
                <th>sku</th>
                <th>display_name</th>
                <th>color</th>
                <th>price</th>
                <th>sizes</th>
                <th>barcodes</th>
                <th>images</th>
                <th>problems</th>
              </tr>
            </thead>
            <tbody id="row-faults">
              {d.preview.rows.map((row) => (
                <tr
                  key={row.line}
                  data-testid={`line-${row.line}`}
                  className={row.problems.length ? "row-fault" : undefined}
                >
                  <td>{row.line}</td>
                  <td>
                    {row.sku}
                    {row.validation ? (
                      <span className="muted" data-testid={`line-${row.line}-validation`}>
                        {" "}
                        (new code: {VALIDATION_STATES[row.validation] ?? row.validation})
                      </span>
                    ) : null}
                  </td>
                  <td>{row.displayName}</td>
                  <td>{row.color}</td>
                  <td>{row.price}</td>
                  <td>{row.sizes.join(", ")}</td>
                  <td>{(row.barcodes ?? []).join(", ")}</td>
                  <td>
                    {row.imageUrls.map((u) => (
                      <img key={u} src={u} alt="" width={48} height={48} />
                    ))}
                  </td>
                  <td className="field-error">{row.problems.join(" ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {d.preview.status === "saved" ? (
            <p className="muted" data-testid="already-saved">
              This upload has been saved.
            </p>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="save" />
              <input type="hidden" name="upload" value={d.preview.id} />
              <button type="submit" className="button" disabled={busy || d.preview.faults > 0}>
                save products
              </button>
            </Form>
          )}
          {err("upload")}
        </>
      ) : null}
    </section>
  );
}
