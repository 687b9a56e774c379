/**
 * Staff's surplus dashboard (docs/product/screens.md, "Surplus dashboard"; ADR 0028), beside the monthly metrics
 * report: the whole marketplace, or one brand with ?brand=<id>, and its matches made per week (ADR 0030). A brand
 * that is not a number or not a brand is answered with the page, its message and a 400 / 404. The same figures
 * of every brand download as CSVs (app/utils/staff-metrics.server.ts).
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { dashboardBrands } from "../../db/queries/dashboard";
import { loadMatchWeeks } from "~/utils/staff-metrics.server";
import { MatchesPerWeek } from "~/components/dashboard/MatchesPerWeek";
import { SurplusDashboard } from "~/components/dashboard/SurplusDashboard";
import dashboardCss from "~/components/dashboard/dashboard.css";
import { pageTitle } from "~/components/title";
import { loadDashboard } from "~/utils/dashboard.server";
import { db } from "~/utils/db.server";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Surplus dashboard") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardCss }];

const BrandParam = z
  .string()
  .regex(/^\d{1,9}$/, "The brand must be chosen from the list (a brand id).")
  .transform(Number)
  .optional();

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  const url = new URL(request.url);
  const brands = await dashboardBrands(db);
  const raw = url.searchParams.get("brand") || undefined;
  const parsed = BrandParam.safeParse(raw);
  if (!parsed.success) {
    return json(
      {
        brands,
        brandId: null,
        error: parsed.error.issues[0].message,
        dashboard: null,
        matches: null,
        who: "",
      },
      { status: 400 },
    );
  }
  const brandId = parsed.data ?? null;
  const brand = brandId === null ? null : brands.find((b) => b.id === brandId);
  if (brand === undefined) {
    return json(
      {
        brands,
        brandId: null,
        error: `There is no brand ${brandId}: choose one from the list.`,
        dashboard: null,
        matches: null,
        who: "",
      },
      { status: 404 },
    );
  }
  const scope = brand ? { brandId: brand.id } : ({ marketplace: true } as const);
  const [dashboard, matches] = await Promise.all([loadDashboard(scope), loadMatchWeeks(scope)]);
  return json({
    brands,
    brandId,
    error: null,
    dashboard,
    matches,
    who: brand ? `Brand ${brand.name}` : "The whole marketplace",
  });
}

export default function StaffDashboard() {
  const { brands, brandId, error, dashboard, matches, who } = useLoaderData<typeof loader>();
  return (
    <section>
      <p>
        <Link to="/admin">Admin hub</Link>
      </p>
      <h1>Surplus dashboard</h1>
      <p className="muted">
        Every retailer&apos;s surplus together, for the whole marketplace or one brand. The monthly
        figures of every order are in the{" "}
        <a href="/admin/reports/monthly-metrics.csv" download>
          monthly metrics report (CSV)
        </a>
        . Download these figures for the whole marketplace and every brand:{" "}
        <a href="/admin/reports/surplus-dashboard.csv" download>
          surplus dashboard per brand (CSV)
        </a>{" "}
        and{" "}
        <a href="/admin/reports/matches-per-week.csv" download>
          matches per week per brand (CSV)
        </a>
        .
      </p>
      <Form method="get" className="inline-form">
        <label htmlFor="dashboard-brand">Brand</label>{" "}
        <select
          id="dashboard-brand"
          name="brand"
          defaultValue={brandId === null ? "" : String(brandId)}
        >
          <option value="">The whole marketplace</option>
          {brands.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="button button-small">
          Show
        </button>
      </Form>
      {error ? (
        <p className="alert alert-danger" role="alert" data-testid="dashboard-error">
          {error}
        </p>
      ) : null}
      {dashboard ? <SurplusDashboard dashboard={dashboard} who={who} /> : null}
      {matches ? <MatchesPerWeek weeks={matches} who={who} /> : null}
    </section>
  );
}
