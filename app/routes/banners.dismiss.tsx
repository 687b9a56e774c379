import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { DISMISSIBLE_BANNERS, safeRedirect } from "~/components/banners";
import { getAuth, readFormData } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { parseSubmission } from "~/utils/form.server";
import { dismissBanner } from "../../db/queries/sessions";

/** The banner to hide and the page to go back to (anything unsafe goes home: safeRedirect). */
const DismissSchema = z.object({ banner: z.enum(DISMISSIBLE_BANNERS), redirectTo: z.unknown() });

/**
 * POST /banners/dismiss (banner=payout|cellphone, redirectTo=/path): "do this later". The banner
 * stays hidden for the rest of this session. A plain form post, so it works without JavaScript.
 */
export async function action({ request }: ActionFunctionArgs) {
  const auth = await getAuth(request);
  if (!auth) throw redirect("/signin");
  const submission = parseSubmission(await readFormData(request), { schema: DismissSchema });
  if (submission.status !== "success") throw new Response("Unknown banner.", { status: 400 });
  await dismissBanner(db, auth.session.id, submission.value.banner);
  return redirect(safeRedirect(submission.value.redirectTo));
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
