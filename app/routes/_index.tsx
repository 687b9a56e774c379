import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { HOME_CARDS } from "~/components/home";
import { SurplusDashboard } from "~/components/dashboard/SurplusDashboard";
import dashboardCss from "~/components/dashboard/dashboard.css";
import { pageTitle } from "~/components/title";
import { getAuth } from "~/utils/auth.server";
import { may, mayOpen } from "../../domain/teams";
import { loadDashboard } from "~/utils/dashboard.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Home") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  // The root loader already sends signed-out visitors to /signin and held retailers to their
  // status page; what is left is a signed-in retailer or staff member.
  const auth = await getAuth(request);
  // The notice after the RMA wizard (/?rma=complete) is the shell's (app/components/shell-data.ts noticeFor).
  // A retailer's home (or staff acting as one) shows its surplus dashboard (ADR 0028).
  // The dashboard is the finance role's (docs/product/teams.md).
  const dashboard =
    auth?.retailer && (auth.user.isStaff || may(auth.user.storeRoles, "finance"))
      ? await loadDashboard({ retailerId: auth.retailer.id })
      : null;
  // The cards of what this person's roles allow (docs/product/teams.md).
  const cards = HOME_CARDS.filter(
    (c) => !auth || auth.user.isStaff || mayOpen(auth.user.storeRoles, c.to),
  ).map((c) => c.to);
  return { signedIn: auth !== null, isStaff: auth?.user.isStaff === true, dashboard, cards };
}

export default function Home() {
  const { signedIn, isStaff, dashboard, cards } = useLoaderData<typeof loader>();
  const shell = useRouteLoaderData<typeof rootLoader>("root");
  if (!signedIn) return <Landing />;
  const storeName = shell?.retailer?.storeName;
  return (
    <section>
      <h1 className="home-title">{storeName ? `Welcome, ${storeName}` : "Welcome"}</h1>
      {isStaff ? (
        <p className="alert">
          <span>
            You are signed in as staff. <Link to="/admin">Go to the admin hub</Link> or{" "}
            <Link to="/act-as">act as a retailer</Link>.
          </span>
        </p>
      ) : null}
      <div className="cards" data-testid="home-cards">
        {HOME_CARDS.filter((c) => (cards as string[]).includes(c.to)).map((c) => (
          <Link key={c.to} to={c.to} className="card">
            <span className="card-kicker">{c.kicker}</span>{" "}
            <span className="card-text">{c.text}</span>
            <span className="card-go" aria-hidden="true">
              →
            </span>
          </Link>
        ))}
      </div>
      {dashboard ? (
        <SurplusDashboard dashboard={dashboard} who={storeName ?? "Your store"} />
      ) : null}
    </section>
  );
}

function Landing() {
  return (
    <section>
      <div className="hero">
        <h1>The wholesale exchange for authorized retailers</h1>
        <p className="lead">
          Sell what didn't sell, find what you need, and buy or swap with other retailers of your
          brands. Anonymously.
        </p>
        <Link to="/signin" className="button">
          Sign In
        </Link>
        <Link to="/register" className="button button-outline">
          Register my store
        </Link>
      </div>
      <p>
        <Link to="/onboarding">How it works</Link> · <Link to="/pricing">Pricing</Link>
      </p>
    </section>
  );
}
