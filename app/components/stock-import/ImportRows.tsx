import type { StockImportRowJson } from "../../../db/schema";

/** What a row's action reads as in the preview and the results (docs/product/screens.md, "Stock file import"). */
const ACTION_TEXT: Record<string, string> = {
  create: "New listing",
  update: "Units updated",
  unchanged: "Unchanged",
  withdraw: "Withdrawn",
  kept: "Kept",
  nothing: "Nothing to do",
  refused: "Refused",
  choose: "Confirm the product",
  skipped: "Skipped",
};

/**
 * The rows of a stock import: line(s), code, product, action and messages. In the preview a row to confirm
 * has a select of its guesses (posted as code[i] / pick[i] with the confirm form `formId`).
 */
export function ImportRows({ rows, formId }: { rows: StockImportRowJson[]; formId?: string }) {
  let pickIndex = 0;
  return (
    <div className="table-scroll">
      <table className="table" data-testid="import-rows">
        <thead>
          <tr>
            <th>Line</th>
            <th>Code</th>
            <th>Product</th>
            <th>Action</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const i = r.action === "choose" ? pickIndex++ : -1;
            const key = `${r.action}-${r.lines.join(",")}-${r.listingId ?? r.code}`;
            return (
              <tr
                key={key}
                className={r.action === "refused" ? "row-bad" : ""}
                data-action={r.action}
                data-lines={r.lines.join(",")}
              >
                <td>{r.lines.length ? r.lines.join(", ") : "—"}</td>
                <td>{r.code}</td>
                <td>{r.label}</td>
                <td>{ACTION_TEXT[r.action] ?? r.action}</td>
                <td>
                  <ul className="problems">
                    {r.messages.map((m) => (
                      <li key={m}>{m}</li>
                    ))}
                  </ul>
                  {formId && r.action === "choose" && r.guesses ? (
                    <>
                      <input type="hidden" form={formId} name={`code[${i}]`} value={r.code} />
                      <label htmlFor={`pick-${i}`}>Product for {r.code}</label>{" "}
                      <select
                        id={`pick-${i}`}
                        form={formId}
                        name={`pick[${i}]`}
                        defaultValue=""
                        data-code={r.code}
                      >
                        <option value="">None: skip these lines</option>
                        {r.guesses.map((g) => (
                          <option key={g.variationId} value={String(g.variationId)}>
                            {g.label}
                          </option>
                        ))}
                      </select>
                    </>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
