/**
 * /create-rma/:id? (spec 001 §2): the RMA wizard is a later issue. Until then the "request RMA" button of
 * the order detail and the rating screen (shown only within 48 hours of delivery) leads here.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ComingSoon } from "~/components/ComingSoon";
import { pageTitle } from "~/components/title";
import { requireRetailer } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Request a return (RMA)") }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailer(request);
  return null;
}

export default function CreateRmaComingSoon() {
  return <ComingSoon title="Request a return (RMA)" />;
}
