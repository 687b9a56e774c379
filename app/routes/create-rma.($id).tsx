/**
 * /create-rma/:id (docs/product/screens.md, "RMA wizard"): the retailer asks to return goods it received on
 * order :id, in four steps: Select Unit(s) (units ≤ received, a reason per chosen line, free text for
 * "Other"), Pictures (three for the reasons that need them: '* picture required'; up to 3 per item; .jpg,
 * .jpeg, .png checked by content), Contact Info (all four required), Confirm ('Amount You Will Receive'; the
 * process button only once every step is complete). Then the RMA is written and its workflow started, and the
 * retailer lands on /?rma=complete. Only within 48 hours of the delivery of what it received, and only when
 * no RMA exists for the order; otherwise the page says why. Works without JavaScript: each step posts the
 * draft so far (the server half: create-rma.($id).server.ts; the steps: app/components/rma/RmaSteps.tsx).
 */
import { useForm } from "@conform-to/react";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList } from "~/components/forms";
import ordersCss from "~/components/orders/orders.css";
import { RMA_STEP_LABELS, RMA_STEPS, type RmaStepData } from "~/utils/rma-draft";
import { RmaStep } from "~/components/rma/RmaSteps";
import { pageTitle } from "~/components/title";
import { createRmaAction, createRmaLoader } from "./create-rma.($id).server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("Request a return (RMA)") }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return createRmaLoader(request, params.id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return createRmaAction(request, params.id);
}

export default function CreateRma() {
  const d = useLoaderData<typeof loader>();
  const s: RmaStepData = useActionData<typeof action>() ?? d.first;
  const [form] = useForm({ id: "rma-wizard", lastResult: s.result });
  const o = d.order;
  return (
    <section className="page" data-testid="rma-wizard" data-step={s.step}>
      <p>
        <Link to={`/transaction/${o.ttype}/${o.id}`}>← Back to the order</Link>
      </p>
      <h1>Request a return (RMA) for order {o.externalId}</h1>
      {!d.eligible.ok ? (
        <div className="alert alert-danger" role="alert" data-testid="rma-not-possible">
          {d.eligible.message}
          {d.eligible.rmaId ? (
            <>
              {" "}
              <Link to={`/rma/${d.eligible.rmaId}`}>See the RMA</Link>
            </>
          ) : null}
        </div>
      ) : (
        <>
          <ol className="wizard-steps" aria-label="Steps">
            {RMA_STEPS.map((st) => (
              <li
                key={st}
                aria-current={st === s.step ? "step" : undefined}
                className={st === s.step ? "active" : ""}
              >
                {RMA_STEP_LABELS[st]}
              </li>
            ))}
          </ol>
          <ErrorList kind="form" testId="rma-error" errors={form.errors} />
          <RmaStep s={s} errors={form.allErrors} lines={d.lines} />
        </>
      )}
    </section>
  );
}
