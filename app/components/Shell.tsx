import { Form, Link, NavLink, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import {
  ACTION_REQUIRED,
  computeBanners,
  CELLPHONE_MESSAGE,
  INACTIVE_HEADLINE,
  inactiveMessage,
  PAYOUT_MESSAGE,
  type Banner,
} from "./banners";
import { logoHref, menuGroups, type MenuItem } from "./menu";
import type { HeaderAlerts, ShellData } from "./shell-data";
import { APP_NAME } from "./title";

/** The page frame: navbar, slide-out menu, notices, banners, content, footer. */
export function Shell({
  data,
  hideChrome,
  children,
}: {
  data: ShellData | null;
  hideChrome: boolean;
  children: ReactNode;
}) {
  const location = useLocation();
  useProfileRefresh(Boolean(data?.retailer));
  const banners =
    data && !hideChrome
      ? computeBanners({
          retailer: data.retailer,
          dismissed: data.dismissedBanners,
          pathname: location.pathname,
        })
      : [];
  return (
    <div className="app">
      {hideChrome ? (
        <header className="navbar navbar-plain">
          <span className="brand">{APP_NAME}</span>
        </header>
      ) : (
        <>
          <SlideMenu data={data} />
          <Navbar data={data} />
        </>
      )}
      <main id="main" className="main">
        {data?.notice ? (
          <div className="alert alert-success" role="status">
            {data.notice}
          </div>
        ) : null}
        {data && banners.length > 0 ? <Banners banners={banners} data={data} /> : null}
        {children}
      </main>
      <Footer data={data} />
      {data?.chatWidget ? (
        <div
          className="chat-widget"
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: data.chatWidget }}
        />
      ) : null}
    </div>
  );
}

function Navbar({ data }: { data: ShellData | null }) {
  const user = data?.user ?? null;
  return (
    <header className="navbar">
      <label htmlFor="menu-toggle" className="menu-button" aria-label="Open menu" title="Menu">
        <span className="burger" aria-hidden="true" />
        <span className="menu-button-text">Menu</span>
      </label>
      <Link to={logoHref(user)} className="brand">
        {APP_NAME}
      </Link>
      {user?.isStaff ? (
        <Link to="/admin" className="pill pill-admin" data-testid="admin-pill">
          Admin
        </Link>
      ) : null}
      {user?.isStaff && data?.envBadge ? (
        <span
          className={`pill pill-env env-${data.envBadge}`}
          data-testid="env-badge"
          title="Environment"
        >
          {data.envBadge}
        </span>
      ) : null}
      {user && !user.isStaff ? (
        <nav className="nav-quick" aria-label="Quick links">
          <NavLink to="/buy">Buy</NavLink>
          <NavLink to="/sell">Sell</NavLink>
          <NavLink to="/swap">Swap</NavLink>
          <NavLink to="/alerts" title={alertsTitle(data?.alerts ?? null)}>
            Alerts
            <AlertsCount alerts={data?.alerts ?? null} testId="alerts-count" />
          </NavLink>
          <NavLink to="/orders">Orders</NavLink>
        </nav>
      ) : null}
      <div className="nav-right">
        {user?.isStaff ? <ActingAs data={data!} /> : null}
        {user ? (
          <Form method="post" action="/logout" className="inline-form nav-logout">
            <button type="submit" className="link-button" title="Log out">
              Logout <span className="nav-email">{user.email}</span>
            </button>
          </Form>
        ) : (
          <>
            <Link to="/signin" className="button button-small">
              Sign In
            </Link>
            <Link to="/register" className="button button-small button-outline">
              Register
            </Link>
          </>
        )}
      </div>
    </header>
  );
}

function alertsTotal(alerts: HeaderAlerts | null): number {
  return alerts ? alerts.orders + alerts.conversations : 0;
}

function alertsTitle(alerts: HeaderAlerts | null): string | undefined {
  if (!alerts || alertsTotal(alerts) === 0) return undefined;
  const parts = [
    alerts.orders
      ? `${alerts.orders} ${alerts.orders === 1 ? "order waits" : "orders wait"} for your answer`
      : "",
    alerts.conversations
      ? `${alerts.conversations} ${alerts.conversations === 1 ? "conversation has" : "conversations have"} new messages`
      : "",
  ];
  return parts.filter(Boolean).join("; ");
}

/** The Alerts link's count (docs/product/screens.md, "Menus and banners"); nothing when nothing waits. */
function AlertsCount({ alerts, testId }: { alerts: HeaderAlerts | null; testId?: string }) {
  const n = alertsTotal(alerts);
  if (n === 0) return null;
  return (
    <span className="nav-count" data-testid={testId}>
      {n}
    </span>
  );
}

/** Staff: which retailer they act as (kept in the session), a link to change it and a clear button. */
function ActingAs({ data }: { data: ShellData }) {
  const acting = data.acting;
  const location = useLocation();
  return (
    <div className="acting" data-testid="acting-as">
      {acting ? (
        <>
          <span className="acting-label">
            Acting as <strong>{acting.storeName}</strong>
            {acting.brand ? <span className="muted"> · {acting.brand.name}</span> : null}
          </span>
          <Link to="/act-as" className="acting-change">
            change
          </Link>
          <Form method="post" action="/act-as" className="inline-form">
            <input type="hidden" name="intent" value="clear" />
            <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
            <button type="submit" className="link-button" aria-label="Stop acting as this retailer">
              clear
            </button>
          </Form>
        </>
      ) : (
        <Link to="/act-as" className="acting-change">
          Act as a retailer
        </Link>
      )}
    </div>
  );
}

/**
 * The slide-out menu works without JavaScript: a checkbox (toggled by the labels) opens it via
 * CSS. With JavaScript, it also closes itself after a navigation.
 */
function SlideMenu({ data }: { data: ShellData | null }) {
  const toggle = useRef<HTMLInputElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (toggle.current) toggle.current.checked = false;
  }, [location.key]);
  const groups = menuGroups(data?.user ?? null);
  return (
    <>
      <input
        type="checkbox"
        id="menu-toggle"
        className="menu-toggle"
        ref={toggle}
        aria-hidden="true"
        tabIndex={-1}
      />
      <label htmlFor="menu-toggle" className="menu-backdrop" aria-hidden="true" />
      <nav className="slideout" aria-label="Main menu" data-testid="slideout">
        <div className="slideout-head">
          <span className="slideout-title">{APP_NAME}</span>
          <label htmlFor="menu-toggle" className="slideout-close" aria-label="Close menu">
            ×
          </label>
        </div>
        {groups.map((g) => (
          <section key={g.title} className="menu-group">
            <h2 className="menu-group-title">{g.title}</h2>
            <ul>
              {g.items.map((item) => (
                <li key={item.kind === "link" ? item.to : item.action}>
                  <MenuEntry item={item} alerts={data?.alerts ?? null} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
    </>
  );
}

function MenuEntry({ item, alerts }: { item: MenuItem; alerts: HeaderAlerts | null }) {
  if (item.kind === "logout") {
    return (
      <Form method="post" action={item.action} className="inline-form">
        <button type="submit" className="menu-link link-button">
          {item.label}
        </button>
      </Form>
    );
  }
  return (
    <NavLink to={item.to} className="menu-link" end>
      {item.label}
      {item.to === "/alerts" ? <AlertsCount alerts={alerts} /> : null}
    </NavLink>
  );
}

function Banners({ banners, data }: { banners: Banner[]; data: ShellData }) {
  const location = useLocation();
  const here = location.pathname + location.search;
  return (
    <div className="banners">
      {banners.map((b) => (
        <div
          key={b.key}
          className={`alert alert-${b.tone}`}
          role="alert"
          data-testid={`banner-${b.key}`}
        >
          <div className="alert-body">
            {b.key === "inactive" ? (
              <p>
                <strong>{INACTIVE_HEADLINE}</strong> {inactiveMessage(data.support)}{" "}
                <Link to="/contact">Contact support</Link>
              </p>
            ) : null}
            {b.key === "payout" ? (
              <p>
                <strong>{ACTION_REQUIRED}</strong> {PAYOUT_MESSAGE}{" "}
                <Link to="/getpaid/">Set up payouts now</Link> (or in{" "}
                <Link to="/settings/payout">Settings → Payout Info</Link>).
              </p>
            ) : null}
            {b.key === "cellphone" ? (
              <p>
                <strong>{CELLPHONE_MESSAGE.slice(0, ACTION_REQUIRED.length)}</strong>
                {CELLPHONE_MESSAGE.slice(ACTION_REQUIRED.length)}{" "}
                <Link to="/settings/contact">Add your cell phone</Link>
              </p>
            ) : null}
          </div>
          {b.dismissible ? (
            <Form method="post" action="/banners/dismiss" className="inline-form alert-actions">
              <input type="hidden" name="banner" value={b.key} />
              <input type="hidden" name="redirectTo" value={here} />
              <button type="submit" className="button button-small button-outline">
                do this later
              </button>
            </Form>
          ) : null}
        </div>
      ))}
    </div>
  );
}

function Footer({ data }: { data: ShellData | null }) {
  return (
    <footer className="footer">
      <nav className="footer-links" aria-label="Footer">
        <Link to="/contact">Contact</Link>
        <Link to="/onboarding">How It Works</Link>
        <Link to="/how-selling-works">How Selling Works</Link>
        <Link to="/pricing">Pricing</Link>
      </nav>
      <p className="footer-copy">
        © 2021 {APP_NAME}
        {data ? (
          <>
            {" · "}
            <a href={`mailto:${data.support.email}`}>{data.support.email}</a>
          </>
        ) : null}
      </p>
    </footer>
  );
}

/** The signed-in retailer's data is revalidated every 60 s (docs/product/windows.md, "Polling"). */
const PROFILE_REFRESH_MS = 60_000;

function useProfileRefresh(active: boolean) {
  const revalidator = useRevalidator();
  const ref = useRef(revalidator);
  ref.current = revalidator;
  useEffect(() => {
    if (!active) return;
    const id = window.setInterval(() => {
      // Silent, and only when the tab is visible and nothing else is loading.
      if (document.visibilityState === "visible" && ref.current.state === "idle")
        ref.current.revalidate();
    }, PROFILE_REFRESH_MS);
    return () => window.clearInterval(id);
  }, [active]);
}
