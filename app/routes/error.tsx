import type { MetaFunction } from "@remix-run/node";
import { HomeButton } from "~/components/ErrorPage";
import { pageTitle } from "~/components/title";

export const meta: MetaFunction = () => [{ title: pageTitle("Error") }];

/** Where non-staff land on any path containing "admin" (docs/product/glossary.md, "Roles and permissions"): the page
 * says "Error.". */
export default function ErrorRoute() {
  return (
    <section className="page page-error">
      <h1>Error.</h1>
      <HomeButton />
    </section>
  );
}
