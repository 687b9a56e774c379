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

/** /getpaid/ : the payout (merchant details) form (docs/product/screens.md, "Settings and payout"). */
export const meta: MetaFunction = () => [{ title: pageTitle("Get paid") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  return payoutLoader(request);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return payoutAction(request, { context });
}

export default function GetPaid() {
  return (
    <section className="page">
      <h1>Get paid</h1>
      <PayoutForm title="Payout details" />
    </section>
  );
}
