import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { SETUP_WIZARD_STEPS as ORDER, type SetupWizardStep } from "../../domain/accounts";
import { SignOutForm } from "~/components/AccountStatusPage";
import { BrandsStep, ContactStep, RetailerStep, UserStep } from "~/components/setup/SetupSteps";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { setupAction, setupPageData } from "./retailer-setup.server";

/** No slide-out menu or navbar on the setup wizard (docs/product/screens.md); the shell's root reads this. */
export const handle = { hideChrome: true };
export const meta: MetaFunction = () => [{ title: pageTitle("Retailer setup") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

const LABELS: Record<SetupWizardStep, string> = {
  user: "User",
  retailer: "Retailer",
  contact: "Retailer Contact",
  brands: "Request Brands",
};

export async function loader({ request }: LoaderFunctionArgs) {
  return setupPageData(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return setupAction(request);
}

function Steps({
  isStaff,
  step,
  current,
  userId,
}: {
  isStaff: boolean;
  step: SetupWizardStep;
  current: SetupWizardStep;
  userId: number | null;
}) {
  const steps = ORDER.filter((s) => isStaff || s !== "user");
  return (
    <ol className="wizard-steps" aria-label="Setup steps">
      {steps.map((s) => {
        const done = ORDER.indexOf(s) < ORDER.indexOf(current);
        const canGo = done && s !== "user";
        const href = `/retailer-setup/?${userId && isStaff ? `user=${userId}&` : ""}step=${s}`;
        return (
          <li
            key={s}
            aria-current={s === step ? "step" : undefined}
            className={done ? "done" : undefined}
          >
            {canGo && s !== step ? <Link to={href}>{LABELS[s]}</Link> : LABELS[s]}
          </li>
        );
      })}
    </ol>
  );
}

export default function RetailerSetup() {
  const d = useLoaderData<typeof loader>();
  // Staff post the user they set up with every later step.
  const target = d.isStaff && d.targetUser ? d.targetUser.id : null;
  return (
    <section className="page wizard-page">
      <div className="form-actions" style={{ justifyContent: "space-between" }}>
        <h1>Set up your store</h1>
        <SignOutForm buttonClass="link-button" />
      </div>
      {d.isStaff && d.targetUser ? (
        <p className="muted">Staff: setting up the retailer of {d.targetUser.email}.</p>
      ) : null}
      <Steps
        isStaff={d.isStaff}
        step={d.step}
        current={d.current}
        userId={d.targetUser?.id ?? null}
      />
      {d.step === "user" ? <UserStep /> : null}
      {d.step === "retailer" ? (
        <RetailerStep key="retailer" target={target} retailer={d.retailer} />
      ) : null}
      {d.step === "contact" ? (
        <ContactStep key="contact" target={target} contact={d.contact} />
      ) : null}
      {d.step === "brands" ? <BrandsStep key="brands" target={target} brands={d.brands} /> : null}
    </section>
  );
}
