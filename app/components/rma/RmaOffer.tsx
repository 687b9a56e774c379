/**
 * The order pages' returns entry (docs/product/screens.md, "My returns"): a link to the order's RMA for both
 * parties (the victim's own, or the one filed against the viewer), and the request button while allowed.
 */
import { Link } from "@remix-run/react";
import { REQUEST_RMA } from "../../../domain/messages";
import type { MyRma } from "~/utils/rma.server";

export function RmaOffer({ orderId, canRma, myRma }: { orderId: number; canRma: boolean; myRma: MyRma | null }) {
  return (
    <>
      {myRma ? (
        <Link to={`/rma/${myRma.id}`} className="button button-outline" data-testid="rma-link" data-side={myRma.role}>
          RMA {myRma.externalId}
          {myRma.role === "perpetrator" ? " filed against you" : ""}: {myRma.displayStatus}
        </Link>
      ) : null}
      {canRma ? (
        <Link to={`/create-rma/${orderId}`} className="button button-outline" data-testid="rma-button">
          {REQUEST_RMA}
        </Link>
      ) : null}
    </>
  );
}
