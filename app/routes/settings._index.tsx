import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/utils/auth.server";
import { may } from "../../domain/teams";

/** /settings opens on its first tab: Store Info, or for a member who does not manage the store, Password. */
export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireUser(request);
  throw redirect(
    auth.user.isStaff || may(auth.user.storeRoles, "team")
      ? "/settings/store"
      : "/settings/password",
  );
}
