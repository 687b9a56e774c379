import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ComingSoon } from "~/components/ComingSoon";
import { pageTitle } from "~/components/title";
import { requireUser } from "~/utils/auth.server";

// Placeholder: a later issue builds this page.
export const meta: MetaFunction = () => [{ title: pageTitle("Request a Product") }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function RequestlistingComingSoon() {
  return <ComingSoon title="Request a Product" />;
}
