import { useForm, type SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { centsToDecimalString } from "../../domain/money";
import { checkPhoto, MAX_PHOTO_BYTES, PHOTO_ACCEPT } from "../../domain/listing-forms";
import { AddSizesSchema, ImageIdSchema, VariationEditSchema } from "../../domain/resources";
import {
  addProductSizes,
  addVariationImage,
  deleteVariationImage,
  getVariationForEditor,
  updateVariation,
} from "../../db/queries/variation-admin";
import { ErrorList } from "~/components/forms";
import { pageTitle } from "~/components/title";
import { removeCatalogueImage, storeCatalogueImage } from "~/utils/catalogue-images.server";
import { db } from "~/utils/db.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";
import { notFound, requirePermission } from "~/utils/permissions.server";
import { RowId } from "../../domain/ids";

export const meta: MetaFunction = () => [{ title: pageTitle("Variation editor") }];

async function variationOr404(raw: string | undefined) {
  const id = RowId.safeParse(raw);
  if (!id.success) throw notFound();
  const v = await getVariationForEditor(db, id.data);
  if (!v) throw notFound();
  return v;
}

/** The variation editor (route name product-variation-management): sku, price, active, sizes, images. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, "productvariation");
  const v = await variationOr404(params.variation_id);
  return {
    v: { ...v, price: centsToDecimalString(v.priceCents) },
    done: new URL(request.url).searchParams.get("done"),
  };
}

/** Conform's reply, tagged with the form of the page it answers (the variation, its sizes, its images). */
type Reply = SubmissionResult<string[]> & { form: "save" | "sizes" | "image" };
const reply = (form: Reply["form"], result: SubmissionResult<string[]>, status = 400) =>
  data<Reply>({ ...result, form }, { status });

export async function action({ request, params }: ActionFunctionArgs) {
  await requirePermission(request, "productvariation");
  const v = await variationOr404(params.variation_id);
  const back = (done: string) => redirect(`/admin/productvariationmanagement/${v.id}?done=${done}`);
  let form: FormData;
  try {
    form = await readFormData(request, { maxBytes: MAX_PHOTO_BYTES + 64 * 1024 });
  } catch (e) {
    if (e instanceof Response && e.status === 413)
      return reply("image", formError("The picture is larger than 5 MB."), 413);
    throw e;
  }
  switch (form.get("intent")) {
    case "save": {
      const s = parseSubmission(form, { schema: VariationEditSchema });
      if (s.status !== "success") return reply("save", s.reply());
      await updateVariation(db, v.id, {
        sku: s.value.sku as string,
        priceCents: s.value.price as number,
        isActive: s.value.is_active as boolean,
      });
      return back("saved");
    }
    case "add-sizes": {
      const s = parseSubmission(form, { schema: AddSizesSchema });
      if (s.status !== "success")
        return reply(
          "sizes",
          s.reply({ formErrors: ["A size label may have at most 40 characters."] }),
        );
      await addProductSizes(db, v.productId, s.value.size_label);
      return back("sizes-added");
    }
    case "upload-image": {
      const file = form.get("image");
      if (!(file instanceof File) || file.size === 0)
        return reply("image", formError("Choose a .jpg or .png picture."));
      const bytes = new Uint8Array(await file.arrayBuffer());
      const checked = checkPhoto(file.name, bytes);
      if (!checked.ok) return reply("image", formError(checked.message));
      await addVariationImage(db, v.id, await storeCatalogueImage(bytes, checked.type));
      return back("image-added");
    }
    case "delete-image": {
      const s = parseSubmission(form, { schema: ImageIdSchema });
      if (s.status !== "success") return reply("image", formError("Unknown image."));
      const url = await deleteVariationImage(db, v.id, s.value.image_id);
      if (url === null)
        return reply("image", formError("That image is not one of this variation's."), 404);
      await removeCatalogueImage(url);
      return back("image-deleted");
    }
    default:
      return reply("save", formError("Unknown action."));
  }
}

const DONE: Record<string, string> = {
  saved: "Saved.",
  "sizes-added": "Sizes added.",
  "image-added": "Image uploaded.",
  "image-deleted": "Image deleted.",
};

export default function VariationEditor() {
  const { v, done } = useLoaderData<typeof loader>();
  const r = useActionData<typeof action>();
  const [saveForm, saveFields] = useForm<{ sku: string; price: string }>({
    id: "variation-save",
    lastResult: r?.form === "save" ? r : null,
  });
  const [sizesForm] = useForm({
    id: "variation-sizes",
    lastResult: r?.form === "sizes" ? r : null,
  });
  const [imageForm] = useForm({
    id: "variation-image",
    lastResult: r?.form === "image" ? r : null,
  });
  const nav = useNavigation();
  const [rows, setRows] = useState(1);
  // A failed upload clears the chosen file: the form is remounted after every answer.
  const uploadKey = `${nav.state}-${imageForm.errors?.[0] ?? ""}-${done ?? ""}`;
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link> /{" "}
        <Link to="/admin/productvariation">Product variations</Link> /{" "}
        <Link to={`/admin/productvariation/${v.id}/`}>#{v.id}</Link>
      </p>
      <h1>
        {v.productName} — {v.color}
      </h1>
      <p className="muted">
        Collection {v.collectionYear} {v.collectionName}
      </p>
      {done && DONE[done] ? (
        <p className="alert alert-success" role="status">
          {DONE[done]}
        </p>
      ) : null}
      <ErrorList kind="form" errors={[...(saveForm.errors ?? []), ...(sizesForm.errors ?? [])]} />
      <Form method="post" noValidate className="resource-form" data-testid="variation-form">
        <input type="hidden" name="intent" value="save" />
        <div className="form-field">
          <label htmlFor="ve-sku">SKU *</label>
          <input id="ve-sku" name="sku" defaultValue={v.sku} />
          <ErrorList kind="list" id="ve-sku" errors={saveFields.sku.errors} />
        </div>
        <div className="form-field">
          <label htmlFor="ve-price">Price *</label>
          <input
            id="ve-price"
            name="price"
            type="number"
            step="0.01"
            min="0"
            defaultValue={v.price}
          />
          <ErrorList kind="list" id="ve-price" errors={saveFields.price.errors} />
        </div>
        <label className="checkbox-label">
          <input type="checkbox" name="is_active" defaultChecked={v.isActive} /> Active
        </label>
        <div className="form-actions">
          <button type="submit" className="button">
            Save
          </button>
        </div>
      </Form>

      <h2>Sizes</h2>
      <p data-testid="sizes">
        {v.sizes.length ? (
          v.sizes.map((s) => s.label).join(" · ")
        ) : (
          <span className="muted">No sizes.</span>
        )}
      </p>
      <Form method="post" className="resource-form" data-testid="sizes-form">
        <input type="hidden" name="intent" value="add-sizes" />
        {Array.from({ length: rows }, (_, i) => (
          <input
            key={i}
            name="size_label"
            aria-label={`New size ${i + 1}`}
            placeholder="Size label"
          />
        ))}
        <div className="form-actions">
          <button
            type="button"
            className="button button-small button-outline"
            onClick={() => setRows((n) => Math.min(n + 1, 20))}
          >
            Another size
          </button>
          <button type="submit" className="button button-small">
            Add sizes
          </button>
        </div>
      </Form>

      <h2>Images</h2>
      <div className="thumbnails" data-testid="images">
        {v.images.length === 0 ? <span className="muted">No images.</span> : null}
        {v.images.map((img) => (
          <Form method="post" key={img.id} className="thumbnail-card">
            <img src={img.thumbnailUrl || img.url} alt="" width={120} height={120} />
            <input type="hidden" name="intent" value="delete-image" />
            <input type="hidden" name="image_id" value={img.id} />
            <button type="submit" className="button button-small button-danger">
              Delete
            </button>
          </Form>
        ))}
      </div>
      <Form
        method="post"
        encType="multipart/form-data"
        key={uploadKey}
        className="resource-form"
        data-testid="image-form"
      >
        <input type="hidden" name="intent" value="upload-image" />
        <label htmlFor="ve-image">Upload an image (.jpg or .png, 5 MB at most)</label>
        <input id="ve-image" type="file" name="image" accept={PHOTO_ACCEPT} />
        <ErrorList kind="form" testId="image-error" errors={imageForm.errors} />
        <button type="submit" className="button button-small">
          Upload
        </button>
      </Form>
    </section>
  );
}
