/** The goods of a draft order (checkout review, swap review): product code, style, sizes, units, price, value. */
import type { DraftOrderView } from "../../../db/queries/checkout";
import { formatCents } from "../../../domain/money";
import { sizesText } from "./format";

export function DraftLinesTable({ lines }: { lines: DraftOrderView["lines"] }) {
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Product code</th>
          <th>Style</th>
          <th>Sizes</th>
          <th>Units</th>
          <th>Price</th>
          <th>Value</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => (
          <tr key={i}>
            <td>{l.productCode}</td>
            <td>
              {l.brandName} {l.displayName} ({l.color})
            </td>
            <td>{sizesText(l.sizes)}</td>
            <td>{l.quantity}</td>
            <td>{formatCents(l.unitPriceCents)}</td>
            <td>{formatCents(l.valueCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
