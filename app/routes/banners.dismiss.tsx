import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isDismissibleBanner, safeRedirect } from "~/components/banners";
import { getAuth, readFormData } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { dismissBanner } from "../../db/queries/sessions";

/**
 * POST /banners/dismiss (banner=payout|cellphone, redirectTo=/path): "do this later". The banner
 * stays hidden for the rest of this session. A plain form post, so it works without JavaScript.
 */
export async function action({ request }: ActionFunctionArgs) {
  const auth = await getAuth(request);
  if (!auth) throw redirect("/signin");
  const form = await readFormData(request);
  const banner = form.get("banner");
  if (!isDismissibleBanner(banner)) {
    throw new Response("Unknown banner.", { status: 400 });
  }
  await dismissBanner(db, auth.session.id, banner);
  return redirect(safeRedirect(form.get("redirectTo")));
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
