import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/title";
import { PAYMENTS_ATTENTION_PERMISSION } from "../../domain/held-payments";
import { RESOURCES } from "../../domain/resources";
import { getEnv } from "~/utils/env.server";
import { listStaffAdmins } from "../../db/queries/staff-users";
import { db } from "~/utils/db.server";
import { requireStaffPermissions } from "~/utils/permissions.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Admin") }];

/** `download`: a file (CSV), opened as a plain link, not a page. */
type HubItem = { label: string; to: string; external?: boolean; download?: boolean };
type HubSection = { title: string; items: HubItem[] };

/** The hub (docs/product/screens.md, "Staff: admin hub"). */
function hubSections(
  temporalUi: string,
  permitted: readonly (keyof typeof RESOURCES)[],
  staffAdmin: boolean,
  rights: readonly string[],
): HubSection[] {
  const retailers = permitted.includes("retailer");
  return [
    // The retailer screens, reports and map need the "retailer" permission; sales reps' editing "salesrep" (ADR 0018).
    {
      title: "Retailers",
      items: [
        ...(retailers
          ? [
              { label: "Retailers", to: "/manage-retailer" },
              { label: "Activation and brand links", to: "/admin/retailers" },
              { label: "Retailer upload", to: "/admin/retailer-upload" },
            ]
          : []),
        { label: "Act as a retailer", to: "/act-as" },
      ],
    },
    {
      title: "Catalogue",
      // Each link only for staff who may manage what it changes (the pages refuse the others; ADR 0020).
      items: [
        ...(permitted.includes("brand")
          ? [
              { label: "Brands", to: "/manage-brand" },
              { label: "Validation", to: "/admin/validate" },
            ]
          : []),
        ...(permitted.includes("brand") && permitted.includes("company")
          ? [{ label: "Brand setup", to: "/brand-setup/" }]
          : []),
        ...(permitted.includes("listing") ? [{ label: "Listings", to: "/admin/listings" }] : []),
      ],
    },
    {
      title: "Orders",
      items: [
        { label: "Orders and RMAs", to: "/admin/active-transactions" },
        ...(rights.includes(PAYMENTS_ATTENTION_PERMISSION)
          ? [{ label: "Payments needing attention", to: "/admin/payments-attention" }]
          : []),
        { label: "RMAs to review", to: "/admin/active-rmas/pending" },
        {
          label: "RMA charges queued for a card",
          to: "/admin/active-rmas/all?status=charge_queued",
        },
        ...(retailers
          ? [
              {
                label: "Shipment insurance report (CSV)",
                to: "/admin/reports/shipment-insurance.csv",
                download: true,
              },
            ]
          : []),
      ],
    },
    {
      title: "Reports",
      items: retailers
        ? [
            { label: "Sales reps", to: "/rep-reports/" },
            { label: "Sales-rep performance", to: "/perf-reports/" },
            { label: "Retailer map", to: "/admin/retailer-map" },
            {
              label: "Monthly metrics (CSV)",
              to: "/admin/reports/monthly-metrics.csv",
              download: true,
            },
            { label: "Surplus dashboard (per brand, marketplace)", to: "/admin/reports/dashboard" },
            {
              label: "Surplus dashboard per brand (CSV)",
              to: "/admin/reports/surplus-dashboard.csv",
              download: true,
            },
            {
              label: "Matches per week per brand (CSV)",
              to: "/admin/reports/matches-per-week.csv",
              download: true,
            },
            {
              label: "Brand inventory (CSV)",
              to: "/admin/reports/brand-inventory.csv",
              download: true,
            },
            {
              label: "Retailer brands (CSV)",
              to: "/admin/reports/retailer-brands.csv",
              download: true,
            },
          ]
        : [],
    },
    {
      title: "System",
      items: [
        { label: "Outbox (e-mails)", to: "/admin/outbox" },
        { label: "Workflows (Temporal UI)", to: temporalUi, external: true },
        ...(staffAdmin ? [{ label: "Staff users", to: "/admin/staff-users" }] : []),
      ],
    },
    // The permissions map (ADR 0020): only the entity types this staff user may manage.
    {
      title: "Manage",
      items: permitted.map((n) => ({ label: RESOURCES[n].plural, to: `/admin/${n}` })),
    },
  ];
}

export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireStaffPermissions(request);
  const sections = hubSections(
    getEnv().TEMPORAL_UI_URL,
    auth.permissions,
    auth.staffAdmin,
    auth.rights,
  ).filter((s) => s.items.length > 0);
  // No grants at all: the page says so and whom to ask, instead of sections that lead to refusals.
  const noGrants =
    auth.permissions.length === 0 && !auth.staffAdmin
      ? { admins: await listStaffAdmins(db) }
      : null;
  return { email: auth.user.email, sections, noGrants };
}

export default function AdminHub() {
  const { email, sections, noGrants } = useLoaderData<typeof loader>();
  return (
    <section className="page">
      <h1>Admin</h1>
      <p className="muted">Signed in as {email}.</p>
      {noGrants ? <NoGrants admins={noGrants.admins} /> : null}
      <div className="hub">
        {sections.map((s) => (
          <div key={s.title} className="hub-card">
            <h2>{s.title}</h2>
            <ul>
              {s.items.map((i) => (
                <li key={i.label}>
                  {i.download ? (
                    <a href={i.to} download>
                      {i.label}
                    </a>
                  ) : i.external ? (
                    <a href={i.to} target="_blank" rel="noreferrer">
                      {i.label}
                    </a>
                  ) : (
                    <Link to={i.to}>{i.label}</Link>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}

/** A staff user without any permission: what that means and whom to ask (docs/product/screens.md, "Staff users"). */
function NoGrants({ admins }: { admins: string[] }) {
  return (
    <div className="alert alert-warning" role="status" data-testid="no-grants">
      <h2>No permissions yet</h2>
      <p>
        Your staff account has no permissions, so there are no catalogue, retailer or report screens
        for you yet. You can still follow orders and RMAs, act as a retailer and read the outbox
        below.
      </p>
      {admins.length > 0 ? (
        <p>
          Ask a staff user who manages staff users to grant you what you need: {admins.join(", ")}.
        </p>
      ) : (
        <p>Ask the marketplace&apos;s administrator to grant you what you need.</p>
      )}
    </div>
  );
}
