import type { ReactNode } from "react";

/** One column of a DataTable: its header and what a row shows in it. */
export type Column<T> = { head: string; cell: (row: T) => ReactNode; className?: string };

/** The one table of the retailer admin's tabs: a header row, then a row per item, one cell per column. */
export function DataTable<T>({
  testId,
  columns,
  rows,
  rowKey,
  rowTestId,
}: {
  testId: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  rowTestId?: (row: T) => string;
}) {
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i}>{c.head}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={rowKey(r)} data-testid={rowTestId?.(r)}>
            {columns.map((c, i) => (
              <td key={i} className={c.className}>
                {c.cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
