import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { pageTitle } from "~/components/title";
import { WizardPage, wizardTitle } from "~/components/wizard/Wizard";
import wizardCss from "~/components/wizard/wizard.css";
import { wizardAction, wizardLoader } from "~/utils/wizard.server";

/**
 * "Request a style" wizard (docs/product/screens.md, "List and request wizards"): /requestlisting/?stage=N with the state in the query string.
 * Loader, action and page are shared with the other wizard (app/components/wizard/).
 */
export const meta: MetaFunction = () => [{ title: pageTitle(wizardTitle("request")) }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: wizardCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  return wizardLoader(request, "request");
}

export async function action({ request }: ActionFunctionArgs) {
  return wizardAction(request, "request");
}

export default function RequestStyleWizard() {
  return <WizardPage />;
}
