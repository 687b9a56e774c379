/**
 * An RMA's lines as the retailer page and the admin RMA card show them: product, reason (the "Other" text),
 * units asked back, staff's decision (pending / approved n / denied) and comment, pictures.
 */
import type { RmaLineView } from "../../../db/queries/rmas";
import { formatCents } from "../../../domain/money";
import { labelFor, RMA_REASON_OTHER, RMA_REASONS } from "../../../domain/reasons";

export function rmaReasonText(l: Pick<RmaLineView, "reason" | "reasonOther">): string {
  const label = labelFor(RMA_REASONS, l.reason) ?? "—";
  return l.reason === RMA_REASON_OTHER && l.reasonOther ? `${label}: ${l.reasonOther}` : label;
}

export function decisionText(l: Pick<RmaLineView, "approved" | "approvedQuantity">): string {
  return l.approved === null
    ? "Pending"
    : l.approved
      ? `Approved (${l.approvedQuantity})`
      : "Denied";
}

export function RmaLinesTable({
  lines,
  pictureUrl,
}: {
  lines: RmaLineView[];
  pictureUrl?: (name: string) => string;
}) {
  return (
    <table className="table" data-testid="rma-lines">
      <thead>
        <tr>
          <th>Product</th>
          <th>Price</th>
          <th>Reason</th>
          <th>Requested</th>
          <th>Decision</th>
          <th>Comment</th>
          {pictureUrl ? <th>Pictures</th> : null}
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.lineId} data-testid="rma-line-row">
            <td>
              {l.productCode} {l.displayName} {l.color ? `(${l.color})` : ""}
            </td>
            <td>{formatCents(l.unitPriceCents)}</td>
            <td>{rmaReasonText(l)}</td>
            <td>{l.requested}</td>
            <td data-testid="rma-line-decision">{decisionText(l)}</td>
            <td>{l.comment ?? ""}</td>
            {pictureUrl ? (
              <td>
                {l.pictures.map((p) => (
                  <a key={p} href={pictureUrl(p)} target="_blank" rel="noreferrer">
                    <img
                      src={pictureUrl(p)}
                      alt={`Picture of ${l.productCode}`}
                      width={48}
                      height={48}
                    />
                  </a>
                ))}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
