/**
 * The order pages' returns entry (docs/product/screens.md, "My returns"): a link to the order's RMA for both
 * parties (the victim's own, or the one filed against the viewer; both on a swap whose two sides each filed one),
 * and the request button while allowed.
 */
import { Link } from "@remix-run/react";
import { REQUEST_RMA } from "../../../domain/messages";
import type { MyRma } from "~/utils/rma.server";

function RmaLink({ rma }: { rma: MyRma }) {
  return (
    <Link
      to={`/rma/${rma.id}`}
      className="button button-outline"
      data-testid="rma-link"
      data-side={rma.role}
    >
      RMA {rma.externalId}
      {rma.role === "perpetrator" ? " filed against you" : ""}: {rma.displayStatus}
    </Link>
  );
}

export function RmaOffer({
  orderId,
  canRma,
  myRma,
}: {
  orderId: number;
  canRma: boolean;
  myRma: MyRma | null;
}) {
  return (
    <>
      {myRma ? <RmaLink rma={myRma} /> : null}
      {myRma?.alsoAgainst ? <RmaLink rma={myRma.alsoAgainst} /> : null}
      {canRma ? (
        <Link
          to={`/create-rma/${orderId}`}
          className="button button-outline"
          data-testid="rma-button"
        >
          {REQUEST_RMA}
        </Link>
      ) : null}
    </>
  );
}
