import { redirect } from "@remix-run/node";

/** /settings opens on its first tab. */
export function loader() {
  throw redirect("/settings/store");
}
