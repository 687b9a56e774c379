import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { PayoutForm } from "~/components/PayoutForm";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { payoutAction, payoutLoader } from "~/utils/payout.server";

/** Settings → Payout Info: the same merchant form as /getpaid/; success comes back to this tab. */
export const meta: MetaFunction = () => [{ title: pageTitle("Payout Info") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  return payoutLoader(request);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return payoutAction(request, { context, successPath: () => "/settings/payout" });
}

export default function SettingsPayoutInfo() {
  return <PayoutForm title="Payout Info" />;
}
