/**
 * The activity columns of the sales-rep reports (docs/product/screens.md, "Staff: reports and map"): traded
 * orders and their value over the report's window, open listings and requests; a rep's row or a retailer's.
 */
export interface ActivityFigures {
  orders: number;
  value: string;
  listings: number;
  requests: number;
}

export function ActivityHeads() {
  return (
    <>
      <th>orders</th>
      <th>value</th>
      <th>listings</th>
      <th>requests</th>
    </>
  );
}

export function ActivityCells({ row }: { row: ActivityFigures }) {
  return (
    <>
      <td>{row.orders}</td>
      <td>{row.value}</td>
      <td>{row.listings}</td>
      <td>{row.requests}</td>
    </>
  );
}
