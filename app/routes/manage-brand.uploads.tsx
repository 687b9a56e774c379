import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { MAX_IMAGES_PER_ROW, readUploadRows, UNSAVED_UPLOAD_DAYS, UPLOAD_ERROR_FLAG } from "../../domain/catalogue-upload";
import { checkPhoto } from "../../domain/listing-forms";
import { formatCents } from "../../domain/money";
import { RESOURCES } from "../../domain/resources";
import { chooserOptions, labelsFor } from "../../db/queries/admin-resources";
import { createCollectionUpload, getCollectionUpload, listCollectionUploads, saveCollectionUpload } from "../../db/queries/collection-uploads";
import { CollectionPicker } from "~/components/admin/resources/CollectionPicker";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { removeStaleCollectionUploads, storeCatalogueImage } from "~/utils/catalogue-images.server";
import { BadZip, MAX_ZIP_BYTES, readZipFolder } from "~/utils/collection-source.server";
import { db } from "~/utils/db.server";
import { readFormData } from "~/utils/form.server";
import { forbidden, mayManage, notFound, requirePermission } from "~/utils/permissions.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Collection Uploads") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

const Id = z.coerce.number().int().positive().max(2_147_483_647);

/** Staff with the brand and product permissions; the brand, collection (of that brand) and upload of the URL. */
async function context(request: Request) {
  const ctx = await requirePermission(request, "brand");
  if (!mayManage(ctx, "product")) throw forbidden(RESOURCES.product.plural);
  const url = new URL(request.url);
  const id = (k: string) => {
    const v = url.searchParams.get(k);
    if (v === null || v === "") return null;
    const p = Id.safeParse(v);
    if (!p.success) throw notFound();
    return p.data;
  };
  const brandId = id("brand");
  if (brandId === null) throw redirect("/manage-brand/choose");
  const collections = await chooserOptions(db, "collection", { filters: { brand: String(brandId) }, limit: 1000 });
  const collectionId = id("collection");
  if (collectionId !== null && !collections.some((c) => c.id === collectionId)) throw notFound();
  return { ctx, brandId, collections, collectionId, uploadId: id("upload") };
}

/** Collection Uploads (spec 002 §2.5): Load a .zip, pick it, update preview, save products. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { brandId, collections, collectionId, uploadId } = await context(request);
  const brandName = (await labelsFor(db, "brand", [brandId]))[brandId];
  if (brandName === undefined) throw notFound();
  const uploads = collectionId ? await listCollectionUploads(db, collectionId) : [];
  const upload = collectionId && uploadId ? await getCollectionUpload(db, collectionId, uploadId) : null;
  if (uploadId && !upload) throw notFound();
  return {
    brandId,
    brandName,
    collections,
    collectionId,
    uploads: uploads.map((u) => ({ id: u.id, fileName: u.fileName, status: u.status, rowCount: u.rowCount })),
    preview: upload
      ? {
          id: upload.id,
          status: upload.status,
          fileName: upload.fileName,
          rows: upload.rows.map((r) => ({
            ...r,
            price: r.priceCents === null ? "—" : formatCents(r.priceCents),
            imageUrls: r.images.map((n) => upload.images[n]),
          })),
          faults: upload.rows.filter((r) => r.problems.length > 0).length,
        }
      : null,
    done: new URL(request.url).searchParams.get("done"),
  };
}

type Reply = { error: string; field?: string; problems?: string[] };

export async function action({ request }: ActionFunctionArgs) {
  const { ctx, brandId, collectionId, uploadId } = await context(request);
  if (collectionId === null) return data<Reply>({ error: "Choose a collection first.", field: "collection" }, { status: 400 });
  const back = (extra: string) => redirect(`/manage-brand/uploads?brand=${brandId}&collection=${collectionId}${extra}`);
  let form: FormData;
  try {
    form = await readFormData(request, { maxBytes: MAX_ZIP_BYTES + 64 * 1024 });
  } catch (e) {
    if (e instanceof Response && e.status === 413) return data<Reply>({ error: "The file is larger than 15 MB.", field: "file" }, { status: 413 });
    throw e;
  }
  const intent = form.get("intent");
  if (intent === "load") {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return data<Reply>({ error: "Choose a .zip file.", field: "file" }, { status: 400 });
    if (!/\.zip$/i.test(file.name))
      return data<Reply>({ error: "The file must be a .zip holding the spreadsheet and the pictures.", field: "file" }, { status: 400 });
    let folder;
    try {
      folder = await readZipFolder(new Uint8Array(await file.arrayBuffer()));
    } catch (e) {
      if (e instanceof BadZip) return data<Reply>({ error: e.message, field: "file" }, { status: 400 });
      throw e;
    }
    const { rows, problems } = readUploadRows(folder, (name, bytes) => checkPhoto(name, bytes).ok);
    if (problems.length) return data<Reply>({ error: problems.join(" "), field: "file" }, { status: 400 });
    const images: Record<string, string> = {};
    for (const name of new Set(rows.flatMap((r) => r.images))) {
      const bytes = folder.images.get(name)!;
      const checked = checkPhoto(name, bytes);
      if (checked.ok) images[name] = await storeCatalogueImage(bytes, checked.type);
    }
    const id = await createCollectionUpload(db, { collectionId, uploadedBy: ctx.user.id, fileName: file.name.slice(0, 200), rows, images });
    await removeStaleCollectionUploads().catch((err) => console.error("[collection uploads] discarding unsaved uploads failed", err));
    return back(`&upload=${id}&done=loaded`);
  }
  if (intent === "save") {
    const p = Id.safeParse(form.get("upload") ?? uploadId);
    if (!p.success) return data<Reply>({ error: "Pick an upload.", field: "upload" }, { status: 400 });
    const r = await saveCollectionUpload(db, collectionId, p.data);
    if (r.ok) return back(`&upload=${p.data}&done=saved`);
    if (r.reason === "missing") throw notFound();
    if (r.reason === "saved") return data<Reply>({ error: "This upload has already been saved.", field: "upload" }, { status: 409 });
    if (r.reason === "duplicate")
      return data<Reply>({ error: `This folder was saved before: the collection already has ${r.skus.join(", ")}.`, field: "upload" }, { status: 409 });
    return data<Reply>({ error: UPLOAD_ERROR_FLAG, field: "upload" }, { status: 400 });
  }
  return data<Reply>({ error: "Unknown action." }, { status: 400 });
}

export default function CollectionUploads() {
  const d = useLoaderData<typeof loader>();
  const r = useActionData<typeof action>() as Reply | undefined;
  const busy = useNavigation().state !== "idle";
  const err = (field: string) =>
    r?.field === field ? (
      <div className="alert alert-danger" role="alert" data-testid={`error-${field}`}>
        {r.error}
      </div>
    ) : null;
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link> / <Link to={`/manage-brand/info?brand=${d.brandId}`}>Brand admin: {d.brandName}</Link>
      </p>
      <h1>Collection Uploads</h1>
      {d.done === "saved" ? (
        <p className="alert alert-success" role="status">
          Products saved.
        </p>
      ) : null}
      {r?.error && !r.field ? (
        <p className="alert alert-danger" role="alert">
          {r.error}
        </p>
      ) : null}
      <CollectionPicker id="up-collection" brandId={d.brandId} collectionId={d.collectionId} collections={d.collections} />
      {err("collection")}
      {d.collectionId ? (
        <>
          <h2>Load Folder</h2>
          <p className="muted">
            A .zip holding one spreadsheet (.xlsx or .csv: sku, display_name, description, color, price, sizes, image1 to image{MAX_IMAGES_PER_ROW})
            and the .jpg / .png pictures it names; 15 MB at most. An upload not saved within {UNSAVED_UPLOAD_DAYS} days is
            discarded with its pictures.
          </p>
          <Form
            method="post"
            encType="multipart/form-data"
            className="inline-form"
            data-testid="load-form"
            key={`${d.preview?.id ?? ""}-${r?.error ?? ""}`}
          >
            <input type="hidden" name="intent" value="load" />
            <input type="file" name="file" accept=".zip,application/zip" aria-label="Folder (.zip)" />{" "}
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
                <th>images</th>
                <th>problems</th>
              </tr>
            </thead>
            <tbody id="row-faults">
              {d.preview.rows.map((row) => (
                <tr key={row.line} data-testid={`line-${row.line}`} className={row.problems.length ? "row-fault" : undefined}>
                  <td>{row.line}</td>
                  <td>{row.sku}</td>
                  <td>{row.displayName}</td>
                  <td>{row.color}</td>
                  <td>{row.price}</td>
                  <td>{row.sizes.join(", ")}</td>
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
