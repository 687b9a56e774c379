import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/title";
import { requireRetailer, requireUser } from "~/utils/auth.server";
import { mayOpen } from "../../domain/teams";

export const meta: MetaFunction = () => [{ title: pageTitle("Settings") }];

/**
 * The tabs of Settings (API tokens: docs/guides/stock-import.md "API") (docs/product/screens.md, "Settings and
 * payout"). `account`: the signed-in user's own (password, two-factor), open to staff too (ADR 0041).
 */
export const SETTINGS_TABS = [
  { to: "/settings/store", label: "Store Info", account: false },
  { to: "/settings/contact", label: "Contact Info", account: false },
  { to: "/settings/payout", label: "Payout Info", account: false },
  { to: "/settings/card", label: "Card On File", account: false },
  { to: "/settings/password", label: "Password", account: true },
  { to: "/settings/two-factor", label: "Two-factor sign-in", account: true },
  { to: "/settings/api", label: "API tokens", account: false },
  { to: "/settings/team", label: "Team", account: false },
] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireUser(request);
  // Staff reach their own account's tabs; the store's tabs are for a retailer (or staff acting as one).
  if (auth.user.isStaff) return { accountOnly: !auth.retailer, hidden: [] as string[] };
  await requireRetailer(request);
  // The store's tabs this person's roles do not open (domain/teams.ts) are not shown.
  const hidden = SETTINGS_TABS.filter((t) => !mayOpen(auth.user.storeRoles, t.to)).map((t) => t.to);
  return { accountOnly: false, hidden };
}

export default function SettingsLayout() {
  const { accountOnly, hidden } = useLoaderData<typeof loader>();
  return (
    <section className="page">
      <h1>Settings</h1>
      <nav className="tabs" aria-label="Settings">
        {SETTINGS_TABS.filter(
          (t) => (!accountOnly || t.account) && !(hidden as string[]).includes(t.to),
        ).map((t) => (
          <NavLink key={t.to} to={t.to} prefetch="intent">
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
  );
}
