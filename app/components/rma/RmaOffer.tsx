/** The order pages' returns entry: a link to the viewer's RMA of the order once it has one, else the request button while allowed. */
import { Link } from "@remix-run/react";
import { REQUEST_RMA } from "../../../domain/messages";
import type { MyRma } from "~/utils/rma.server";

export function RmaOffer({ orderId, canRma, myRma }: { orderId: number; canRma: boolean; myRma: MyRma | null }) {
  if (myRma) {
    return (
      <Link to={`/rma/${myRma.id}`} className="button button-outline" data-testid="rma-link">
        RMA {myRma.externalId}: {myRma.displayStatus}
      </Link>
    );
  }
  if (!canRma) return null;
  return (
    <Link to={`/create-rma/${orderId}`} className="button button-outline" data-testid="rma-button">
      {REQUEST_RMA}
    </Link>
  );
}
