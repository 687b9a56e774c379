import { Form } from "@remix-run/react";

/** The brand admin's collection choice (Products, Collection Uploads): a GET form keeping the brand. */
export function CollectionPicker({
  id,
  brandId,
  collectionId,
  collections,
}: {
  id: string;
  brandId: number | null;
  collectionId: number | null;
  collections: { id: number; display_name: string }[];
}) {
  return (
    <Form method="get" className="inline-form">
      <input type="hidden" name="brand" value={brandId ?? ""} />
      <label htmlFor={id}>Collection</label>{" "}
      <select id={id} name="collection" defaultValue={collectionId ?? ""}>
        <option value="">Choose a collection…</option>
        {collections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.display_name}
          </option>
        ))}
      </select>{" "}
      <button type="submit" className="button button-small">
        Choose
      </button>
    </Form>
  );
}
