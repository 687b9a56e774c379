import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { localDateISO } from "../../domain/business-days";
import { RowId } from "../../domain/ids";
import { RESOURCES, type ResourceDef } from "../../domain/resources";
import { ResourceForm } from "~/components/admin/resources/ResourceForm";
import { pageTitle } from "~/components/title";
import { getEnv } from "~/utils/env.server";
import { forbidden, mayManage, notFound, requirePermission } from "~/utils/permissions.server";
import {
  chooserData,
  loadEditRow,
  saveResourceForm,
  type FormValues,
} from "~/utils/resource-form.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Brand setup") }];

/**
 * The brand setup wizard (docs/product/screens.md, "Staff: brand admin"): Company, Company Contact, Add a Brand. Each step is a slice of
 * the company / brand resource definitions, saved through their schemas; the company travels in the URL.
 */
const STEPS = [
  {
    step: "company",
    label: "Company",
    resource: "company",
    fields: ["name", "address1", "address2", "city", "state", "postal_code", "country"],
  },
  {
    step: "contact",
    label: "Company Contact",
    resource: "company",
    fields: ["first_name", "last_name", "job_title", "phone", "celphone", "email"],
  },
  {
    step: "brand",
    label: "Add a Brand",
    resource: "brand",
    fields: ["name", "display_name", "business_model", "segments", "price_tier", "alias"],
  },
] as const;
type Step = (typeof STEPS)[number];

function slice(step: Step): ResourceDef {
  const base = RESOURCES[step.resource];
  const required =
    step.step === "contact" ? new Set(["first_name", "last_name", "email"]) : new Set<string>();
  return {
    ...base,
    fields: base.fields
      .filter((f) => (step.fields as readonly string[]).includes(f.name))
      .map((f) => (required.has(f.name) ? { ...f, required: true } : f)),
  };
}

async function context(request: Request) {
  const ctx = await requirePermission(request, "brand");
  if (!mayManage(ctx, "company")) throw forbidden(RESOURCES.company.plural);
  const url = new URL(request.url);
  const step = STEPS.find((s) => s.step === (url.searchParams.get("step") ?? "company"));
  if (!step) throw notFound();
  const rawCompany = url.searchParams.get("company");
  const companyId = rawCompany ? (RowId.safeParse(rawCompany).data ?? null) : null;
  if (rawCompany && companyId === null) throw notFound();
  if (step.step !== "company" && companyId === null) throw redirect("/brand-setup/");
  return { step, companyId, def: slice(step) };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { step, companyId, def } = await context(request);
  let values: FormValues = {};
  if (companyId !== null && step.resource === "company") {
    const row = await loadEditRow("company", RESOURCES.company, companyId);
    if (!row) throw notFound();
    values = row.values;
  }
  return {
    step: step.step,
    steps: STEPS.map((s) => ({ step: s.step, label: s.label })),
    companyId,
    def,
    values,
    choosers: await chooserData(def, values),
    today: localDateISO(Date.now(), getEnv().MARKETPLACE_TZ),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { step, companyId, def } = await context(request);
  if (step.step === "brand") {
    // The brand belongs to the wizard's company: the company field is not on the form, it is added here.
    const r = await saveResourceForm(request, "brand", def, null, {
      company: companyId,
      is_valid: true,
      is_active: true,
    });
    return "reply" in r ? r.reply : redirect(`/manage-brand/info?brand=${r.savedId}&done=saved`);
  }
  const r = await saveResourceForm(request, "company", def, companyId);
  if ("reply" in r) return r.reply;
  return redirect(
    `/brand-setup/?step=${step.step === "company" ? "contact" : "brand"}&company=${r.savedId}`,
  );
}

export default function BrandSetup() {
  const d = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1>Brand setup</h1>
      <ol className="wizard-steps" data-testid="steps">
        {d.steps.map((s) => (
          <li key={s.step} aria-current={s.step === d.step ? "step" : undefined}>
            {s.label}
          </li>
        ))}
      </ol>
      <h2>{d.steps.find((s) => s.step === d.step)!.label}</h2>
      <ResourceForm
        def={d.def}
        values={d.values}
        lastResult={reply}
        choosers={d.choosers}
        today={d.today}
        mode={d.step === "company" && d.companyId === null ? "new" : "edit"}
        submitLabel={d.step === "brand" ? "Add brand" : "Next"}
      />
    </section>
  );
}
