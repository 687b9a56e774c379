import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { RowId } from "../../domain/ids";
import { chooserOptions } from "../../db/queries/admin-resources";
import { listUnresolvedEntries, type UnresolvedEntry } from "../../db/queries/catalogue-entries";
import {
  categoryChoices,
  listExternalBrands,
  listingSample,
  listUncategorised,
} from "../../db/queries/validation";
import { ActionError } from "~/components/admin/ActionError";
import { BrandCard, EntryCards, type Refusal } from "~/components/admin/ValidationCards";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { db } from "~/utils/db.server";
import { readFormData } from "~/utils/form.server";
import { forbidden, mayManage, notFound, requirePermission } from "~/utils/permissions.server";
import { fixedIds, validationAction } from "./admin.validate.($stage).server";

export const meta: MetaFunction = () => [{ title: pageTitle("Validation") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/** Validation tools (docs/product/screens.md, "Staff: validation tools"): the stages brands, categories and products (lists of 200). */
const STAGES = [
  { stage: "brands", label: "Brands", needs: "brand" },
  { stage: "categories", label: "Categories", needs: "product" },
  { stage: "products", label: "Products", needs: "product" },
] as const;

async function context(request: Request, raw: string | undefined) {
  const ctx = await requirePermission(request, "brand");
  const stage = STAGES.find((s) => s.stage === (raw ?? "brands"));
  if (!stage) throw notFound();
  if (!mayManage(ctx, stage.needs))
    throw forbidden(stage.needs === "product" ? "products" : "brands");
  return { ctx, stage: stage.stage };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, stage } = await context(request, params.stage);
  const url = new URL(request.url);
  const fixed = fixedIds(url.searchParams.get("fixed"));
  const stages = STAGES.filter((s) => mayManage(ctx, s.needs)).map((s) => ({
    stage: s.stage,
    label: s.label,
  }));
  if (stage === "brands") {
    const sampleId = RowId.safeParse(url.searchParams.get("sample")).data ?? null;
    return {
      stage,
      stages,
      fixed,
      brands: await listExternalBrands(db, fixed),
      valid: await chooserOptions(db, "brand", { filters: { is_valid: "true" }, limit: 1000 }),
      sample: sampleId ? { brandId: sampleId, listings: await listingSample(db, sampleId) } : null,
    };
  }
  if (stage === "products")
    return { stage, stages, fixed, entries: await listUnresolvedEntries(db, fixed) };
  return {
    stage,
    stages,
    fixed,
    products: await listUncategorised(db, fixed),
    categories: await categoryChoices(db),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { stage } = await context(request, params.stage);
  return validationAction(request, stage, await readFormData(request));
}

export default function Validate() {
  const d = useLoaderData<typeof loader>();
  const r = useActionData<typeof action>();
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1>Validation</h1>
      <nav className="tabs" aria-label="Validation stages">
        {d.stages.map((s) => (
          <Link
            key={s.stage}
            to={`/admin/validate/${s.stage}`}
            aria-current={s.stage === d.stage ? "page" : undefined}
          >
            {s.label}
          </Link>
        ))}
      </nav>
      {d.brands && d.valid ? (
        d.brands.length === 0 ? (
          <p className="muted">No external brands to validate.</p>
        ) : (
          d.brands.map((b) => (
            <BrandCard
              key={b.id}
              b={b}
              fixed={d.fixed.includes(b.id)}
              valid={d.valid!}
              sample={d.sample ?? null}
              refusal={r}
            />
          ))
        )
      ) : null}
      {d.entries ? (
        <EntryCards entries={d.entries as UnresolvedEntry[]} fixed={d.fixed} refusal={r} />
      ) : null}
      {d.products && d.categories ? (
        <CategoryCards
          d={{ fixed: d.fixed, products: d.products, categories: d.categories }}
          refusal={r}
        />
      ) : null}
    </section>
  );
}

function CategoryCards({
  d,
  refusal,
}: {
  d: {
    fixed: number[];
    products: {
      id: number;
      sku: string;
      displayName: string;
      brand: string;
      category: string | null;
      listingCount: number;
    }[];
    categories: { id: number; name: string }[];
  };
  refusal?: Refusal;
}) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <>
      <datalist id="category-options">
        {d.categories.map((c) => (
          <option key={c.id} value={c.name} />
        ))}
      </datalist>
      {d.products.length === 0 ? (
        <p className="muted">No listed products without a category.</p>
      ) : null}
      {d.products.map((p) => (
        <article
          key={p.id}
          id={`card-${p.id}`}
          className="hub-card"
          data-testid={`category-card-${p.id}`}
        >
          {d.fixed.includes(p.id) && open !== p.id ? (
            <button type="button" className="link-button" onClick={() => setOpen(p.id)}>
              FIXED! {p.category}
            </button>
          ) : (
            <>
              <h2>
                {p.brand} · {p.sku} {p.displayName}
              </h2>
              <p className="muted">
                {p.listingCount} listings · category: {p.category ?? "none"}
              </p>
              <ActionError
                id={`card-${p.id}-form`}
                lastResult={refusal?.card === p.id ? refusal.result : null}
              />
              <Form method="post" className="inline-form">
                <input type="hidden" name="product" value={p.id} />
                <input
                  name="category"
                  list="category-options"
                  placeholder="Choose a Category"
                  aria-label={`Category of ${p.sku}`}
                  autoComplete="off"
                />{" "}
                <button type="submit" className="button button-small">
                  Save
                </button>
              </Form>
            </>
          )}
        </article>
      ))}
    </>
  );
}
