/**
 * /messages/:kind/:id (ADR 0027; docs/product/screens.md, "Messages on an order"): the conversation of a
 * purchase (buy), a swap or an RMA between its two retailers, with staff. The order pages show it and post here
 * (POST: one message; refused with the reason and a 4xx); the page itself is where staff read and post from the
 * order and RMA cards. A retailer that is no party to the order gets a 404. Server half: app/utils/messages.server.ts.
 */
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Conversation } from "~/components/orders/Conversation";
import ordersCss from "~/components/orders/orders.css";
import { pageTitle } from "~/components/title";
import { conversationAccess, conversationFor, postMessage } from "~/utils/messages.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: pageTitle(d ? `Messages: order ${d.externalId}` : "Messages") },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { order, viewer } = await conversationAccess(request, params);
  const conversation = await conversationFor(order, viewer);
  return { externalId: order.externalId, conversation, staffViewer: viewer.isStaff };
}

export async function action({ request, params }: ActionFunctionArgs) {
  return postMessage(request, params);
}

export default function OrderMessages() {
  const d = useLoaderData<typeof loader>();
  // A post without scripts lands here: its refusal (reason and text) or its reset.
  const posted = useActionData<typeof action>();
  return (
    <section className="page" data-testid="messages-page">
      <p>
        <Link to={d.conversation.pagePath} data-testid="messages-order-link">
          ← Order {d.externalId}
        </Link>
      </p>
      <h1>Messages: order {d.externalId}</h1>
      <Conversation c={d.conversation} staffViewer={d.staffViewer} lastResult={posted} />
    </section>
  );
}
