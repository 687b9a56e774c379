import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  LiveReload,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { ErrorPage } from "~/components/ErrorPage";
import { useNonce } from "~/components/nonce";
import { NOT_FOUND_TITLE, SERVER_ERROR_TITLE } from "~/components/errors";
import { Shell } from "~/components/Shell";
import { buildShellData, visiblePath, type ShellData } from "~/components/shell-data";
import { APP_NAME, pageTitle } from "~/components/title";
import stylesheet from "~/styles/app.css";
import { getAuth, requiredActionRedirect } from "~/utils/auth.server";
import { getEnv } from "~/utils/env.server";
import { headerAlerts } from "~/utils/header-alerts.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
];

export const meta: MetaFunction = ({ error }) => {
  if (error) {
    const status = isRouteErrorResponse(error) ? error.status : 500;
    return [
      {
        title: pageTitle(
          status === 404 ? NOT_FOUND_TITLE : status >= 500 ? SERVER_ERROR_TITLE : String(status),
        ),
      },
    ];
  }
  return [{ title: APP_NAME }];
};

/**
 * The central guard and the layout's data. Every page request passes here: the required-action
 * redirect (admin paths for non-staff, sign-in, retailer setup / activation / denied) is applied
 * before anything renders. Only what the layout shows is returned (see ShellData).
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<ShellData> {
  const url = new URL(request.url);
  const auth = await getAuth(request);
  const path = visiblePath(url);
  const target = requiredActionRedirect(auth, path + url.search);
  if (target && target !== path) throw redirect(target);
  const alerts = auth?.retailer && !auth.user.isStaff ? await headerAlerts(auth.retailer.id) : null;
  return buildShellData(auth, getEnv(), url, alerts);
}

/** Re-run the guard (and refresh banners) on every navigation, not only when params change. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (!formMethod && currentUrl.href !== nextUrl.href) return true;
  return defaultShouldRevalidate;
};

export interface ShellHandle {
  /** Hide the navbar and the slide-out menu (retailer setup, packing slip). */
  hideChrome?: boolean;
}

function useHideChrome(): boolean {
  const matches = useMatches();
  return matches.some((m) => (m.handle as ShellHandle | undefined)?.hideChrome === true);
}

export function Layout({ children }: { children: ReactNode }) {
  // Undefined when the root loader itself failed: the error page then renders with a plain frame.
  const data = useRouteLoaderData<typeof loader>("root") ?? null;
  const hideChrome = useHideChrome();
  const nonce = useNonce();
  // Marks the document once React has hydrated it (effects run after the hydration commit): browser tests
  // wait for it before clicking, since a click while the page hydrates can be lost.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Shell data={data} hideChrome={hideChrome}>
          {children}
        </Shell>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        {/* Classic-compiler dev server reloads the page after a rebuild; renders nothing in production. */}
        <LiveReload nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
