import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { pageTitle } from "~/components/title";
import { requireRetailer } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Settings") }];

/** The six tabs of Settings (API tokens: docs/guides/stock-import.md "API") (docs/product/screens.md, "Settings and payout"). */
export const SETTINGS_TABS = [
  { to: "/settings/store", label: "Store Info" },
  { to: "/settings/contact", label: "Contact Info" },
  { to: "/settings/payout", label: "Payout Info" },
  { to: "/settings/card", label: "Card On File" },
  { to: "/settings/password", label: "Password" },
  { to: "/settings/api", label: "API tokens" },
] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailer(request);
  return null;
}

export default function SettingsLayout() {
  return (
    <section className="page">
      <h1>Settings</h1>
      <nav className="tabs" aria-label="Settings">
        {SETTINGS_TABS.map((t) => (
          <NavLink key={t.to} to={t.to} prefetch="intent">
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
  );
}
