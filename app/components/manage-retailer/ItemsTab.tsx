/**
 * Listings and Requests tabs: the retailer's items, "add listing" / "request listing" as the retailer, and the
 * modal edit of one item (?edit=<id>), saved by the listing editor's own action (/updatelisting/:id,
 * /updaterequest/:id: staff's change is a correction), which comes back here. Its refusals (bad input,
 * pending transactions) show on the full editor.
 */
import { Form, Link } from "@remix-run/react";
import type { itemsTab } from "~/utils/manage-retailer.server";
import { DataTable, type Column } from "./DataTable";
import { Modal, SaveCancel } from "./parts";

type ItemsData = Awaited<ReturnType<typeof itemsTab>>;
type Item = ItemsData["items"][number];
type Editing = NonNullable<ItemsData["editing"]>;

/** Acts as the retailer (kept in the session), then opens a page as it: "add listing" / "request listing". */
function ActAsButton({ retailerId, to, label }: { retailerId: number; to: string; label: string }) {
  return (
    <Form method="post" action="/act-as" className="inline-form">
      <input type="hidden" name="intent" value="act" />
      <input type="hidden" name="retailerId" value={retailerId} />
      <input type="hidden" name="redirectTo" value={to} />
      <button type="submit" className="button button-small">
        {label}
      </button>
    </Form>
  );
}

export function ItemsTab({ d, retailerId }: { d: ItemsData; retailerId: number }) {
  const listing = d.kind === "listings";
  const columns: Column<Item>[] = [
    { head: "id", cell: (i) => i.id },
    { head: "brand", cell: (i) => i.brandName },
    { head: "sku", cell: (i) => i.sku },
    { head: "product", cell: (i) => i.productName },
    { head: "color", cell: (i) => i.color },
    { head: "units", cell: (i) => i.totalUnits },
    { head: "price", cell: (i) => i.price },
    { head: "status", cell: (i) => i.status },
    { head: "created", cell: (i) => i.created },
    {
      head: "",
      cell: (i) => (
        <Link
          to={`/manage-retailer/${d.kind}?id=${retailerId}&edit=${i.id}`}
          className="button button-small button-outline"
          aria-label={`Edit ${i.id}`}
        >
          Edit
        </Link>
      ),
    },
  ];
  return (
    <>
      {/* A <div>, not a <p>: a form may not sit inside a paragraph (the browser would close the paragraph
          before it, and the page's HTML would not match what React hydrates). */}
      <div className="tab-actions">
        <ActAsButton
          retailerId={retailerId}
          to={listing ? "/addlisting" : "/requestlisting"}
          label={listing ? "add listing" : "request listing"}
        />{" "}
        <span className="muted">(acts as this retailer)</span>
      </div>
      {d.items.length === 0 ? (
        <p className="muted">{listing ? "No listings." : "No requests."}</p>
      ) : (
        <DataTable testId={d.kind} columns={columns} rows={d.items} rowKey={(i) => i.id} />
      )}
      {d.editing ? <ItemModal kind={d.kind} retailerId={retailerId} item={d.editing} /> : null}
    </>
  );
}

/** The modal edit: the sizes, reason, type and the modified reason. */
function ItemModal({
  kind,
  retailerId,
  item,
}: {
  kind: ItemsData["kind"];
  retailerId: number;
  item: Editing;
}) {
  const listing = kind === "listings";
  const back = `/manage-retailer/${kind}?id=${retailerId}`;
  return (
    <Modal testId="item-modal" title={`Edit ${listing ? "listing" : "request"} #${item.id}`}>
      <p className="muted">{item.title}</p>
      <Form
        method="post"
        action={listing ? `/updatelisting/${item.id}` : `/updaterequest/${item.id}`}
        className="form-stack"
      >
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="back" value={back} />
        <div className="form-row">
          {item.sizes.map((sz, idx) => (
            <label key={sz.label} className="field">
              {sz.label}
              <input
                name={`sizes[${idx}]`}
                type="number"
                min={0}
                step={1}
                defaultValue={sz.count}
              />
            </label>
          ))}
        </div>
        {listing ? (
          <label className="field">
            Type
            <select name="listing_type" defaultValue={item.listingType ?? "sell"}>
              <option value="sell">Sell</option>
              <option value="swap">Swap</option>
            </select>
          </label>
        ) : null}
        <ChoiceSelect
          label="Reason"
          name="reason"
          choices={item.reasons}
          defaultValue={item.reason}
        />
        <ChoiceSelect
          label="Why is it changing?"
          name="modified_reason"
          choices={item.modifiedReasons}
          defaultValue=""
          placeholder="Choose…"
        />
        <SaveCancel label="Save" back={back} />
      </Form>
    </Modal>
  );
}

function ChoiceSelect(p: {
  label: string;
  name: string;
  choices: { value: string; label: string }[];
  defaultValue: string;
  placeholder?: string;
}) {
  return (
    <label className="field">
      {p.label}
      <select name={p.name} defaultValue={p.defaultValue}>
        {p.placeholder !== undefined ? <option value="">{p.placeholder}</option> : null}
        {p.choices.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
    </label>
  );
}
