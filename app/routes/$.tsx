import type { MetaFunction } from "@remix-run/node";
import { ErrorPage } from "~/components/ErrorPage";
import { NOT_FOUND_TITLE } from "~/components/errors";
import { pageTitle } from "~/components/title";

export const meta: MetaFunction = () => [{ title: pageTitle(NOT_FOUND_TITLE) }];

/** Any URL no route matches: a 404 status and the friendly "Page not found" page. */
export function loader() {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}

export const ErrorBoundary = ErrorPage;
