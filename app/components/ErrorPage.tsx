import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { errorView } from "./errors";

/** The content of an error page; the root renders it inside the layout when it can. */
export function ErrorPage() {
  const error = useRouteError();
  const view = errorView(error, isRouteErrorResponse);
  return (
    <section className="page page-error" data-status={view.status}>
      <h1>{view.title}</h1>
      <p className="lead">{view.text}</p>
      <HomeButton />
    </section>
  );
}

/** The way out of an error page: a button to the home page. */
export function HomeButton() {
  return (
    <p>
      <Link to="/" className="button">
        Go to the home page
      </Link>
    </p>
  );
}
