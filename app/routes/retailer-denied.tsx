import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MSG } from "../../domain/accounts";
import { AccountStatusPage } from "~/components/AccountStatusPage";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { requireUser } from "~/utils/auth.server";
import { getEnv } from "~/utils/env.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Retailer account denied") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/** "Retailer denied" (docs/product/screens.md, "Account-status pages"). */
export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireUser(request);
  if (auth.user.isStaff) throw redirect("/admin/retailers");
  const r = auth.ownRetailer;
  if (!r || r.status !== "denied") throw redirect("/");
  return { name: auth.contact?.firstName || "", supportEmail: getEnv().RETAILER_SUPPORT_EMAIL };
}

export default function RetailerDenied() {
  const { name, supportEmail } = useLoaderData<typeof loader>();
  return (
    <AccountStatusPage testId="retailer-denied" title={MSG.deniedTitle}>
      <p>{name ? `Hello ${name},` : "Hello,"}</p>
      <p>
        {MSG.deniedBody}: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
      </p>
    </AccountStatusPage>
  );
}
