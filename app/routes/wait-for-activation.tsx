import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MSG } from "../../domain/accounts";
import { AccountStatusPage } from "~/components/AccountStatusPage";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { requireUser } from "~/utils/auth.server";
import { getEnv } from "~/utils/env.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Please wait for activation") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/** "Wait for approval" (docs/product/screens.md, "Account-status pages"). */
export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireUser(request);
  if (auth.user.isStaff) throw redirect("/admin/retailers");
  const r = auth.ownRetailer;
  if (!r || !r.setupCompletedAt) throw redirect("/retailer-setup/");
  if (r.status === "denied") throw redirect("/retailer-denied/");
  if (r.status !== "pending") throw redirect("/");
  return {
    storeName: r.storeName,
    email: auth.user.email,
    supportEmail: getEnv().RETAILER_SUPPORT_EMAIL,
  };
}

export default function WaitForActivation() {
  const { storeName, email, supportEmail } = useLoaderData<typeof loader>();
  return (
    <AccountStatusPage testId="wait-for-activation" title={MSG.waitTitle}>
      <p className="lead">{MSG.waitBody}</p>
      <p>
        We will write to <strong>{email}</strong> about <strong>{storeName}</strong>. Questions?
        Contact <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
      </p>
    </AccountStatusPage>
  );
}
