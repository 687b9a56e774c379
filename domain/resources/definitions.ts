import { JOB_TITLES, BRAND_INTERESTS } from "../accounts";
import { US_STATE_CODES } from "../retailer-admin";
import type { Choice, FieldDef, ResourceDef } from "./fields";

/**
 * The entities staff manage (docs/product/screens.md, "Staff: generic lists and forms"), one definition each. The name is the URL's class_name
 * (/admin/brand, /admin/brand/new/, /admin/brand/12/) and the key of a staff user's permissions map.
 * Sales reps (ADR 0018) are one too: their reports are /rep-reports/ and /perf-reports/.
 */

const choices = (...values: string[]): Choice[] =>
  values.map((v) => ({ value: v, display_name: v }));

export const SEGMENTS = choices(
  "outdoor",
  "apparel",
  "footwear",
  "lifestyle",
  "denim",
  "surf",
  "independent",
  "accessories",
);
export const PRICE_TIERS = choices("value", "mid", "premium");
const US_STATE_HELP = "Two-letter state code, e.g. NY.";

/** A resource: creatable and deletable unless said otherwise, without is_active unless said. */
function def(
  name: string,
  label: string,
  plural: string,
  search_help: string,
  flags: Partial<Pick<ResourceDef, "can_create" | "can_delete" | "has_active">>,
  fields: FieldDef[],
): ResourceDef {
  return {
    name,
    label,
    plural,
    search_help,
    can_create: true,
    can_delete: true,
    has_active: false,
    ...flags,
    fields,
  };
}

const id: FieldDef = {
  name: "id",
  type: "integer",
  label: "ID",
  read_only: true,
  list: true,
  sortable: true,
};
const isActive: FieldDef = {
  name: "is_active",
  type: "boolean",
  label: "Active",
  list: true,
  sortable: true,
};

const contactFields = (opts: { requiredNames: boolean }): FieldDef[] => [
  {
    name: "first_name",
    type: "string",
    label: "First name",
    required: opts.requiredNames,
    max_length: 100,
    list: true,
    sortable: true,
  },
  {
    name: "last_name",
    type: "string",
    label: "Last name",
    required: opts.requiredNames,
    max_length: 100,
    list: true,
    sortable: true,
  },
  { name: "job_title", type: "string", label: "Job title", max_length: 100 },
  { name: "phone", type: "string", label: "Phone", help_text: "+1-###-###-####" },
  { name: "celphone", type: "string", label: "Cell phone", help_text: "+1-###-###-####" },
];

const addressFields: FieldDef[] = [
  { name: "address1", type: "string", label: "Shipping Address", max_length: 200 },
  { name: "city", type: "string", label: "City", max_length: 100, list: true, sortable: true },
  {
    name: "state",
    type: "string",
    label: "State",
    help_text: US_STATE_HELP,
    max_length: 2,
    list: true,
    sortable: true,
  },
  { name: "postal_code", type: "string", label: "Postal code", help_text: "##### or #####-####" },
];

export const brand = def(
  "brand",
  "Brand",
  "Brands",
  "Search by id, name or display name",
  { has_active: true },
  [
    id,
    {
      name: "name",
      type: "string",
      label: "Name",
      required: true,
      max_length: 120,
      list: true,
      sortable: true,
    },
    {
      name: "display_name",
      type: "string",
      label: "Display name",
      required: true,
      max_length: 120,
      list: true,
      sortable: true,
    },
    { name: "business_model", type: "string", label: "Business model", max_length: 120 },
    { name: "segments", type: "multiplechoice", label: "Segments", choices: SEGMENTS },
    {
      name: "price_tier",
      type: "choice",
      label: "Price tier",
      choices: PRICE_TIERS,
      list: true,
      sortable: true,
    },
    { name: "company", type: "field", label: "Company", relationship_resource: "company" },
    {
      name: "alias",
      type: "string",
      label: "Alias",
      help_text: "Another name retailers use for this brand.",
      max_length: 120,
    },
    {
      name: "is_valid",
      type: "boolean",
      label: "Valid",
      help_text: "Only valid brands are offered in brand choosers.",
      list: true,
      sortable: true,
    },
    {
      name: "staff_comments",
      type: "string",
      label: "Staff comments",
      help_text: "Notes for staff only.",
    },
    isActive,
  ],
);

export const company = def("company", "Company", "Companies", "Search by id, name or e-mail", {}, [
  id,
  {
    name: "name",
    type: "string",
    label: "Company name",
    required: true,
    max_length: 200,
    list: true,
    sortable: true,
  },
  ...contactFields({ requiredNames: false }),
  { name: "email", type: "email", label: "E-mail", list: true, sortable: true },
  addressFields[0],
  { name: "address2", type: "string", label: "Address line 2", max_length: 200 },
  ...addressFields.slice(1),
  {
    name: "country",
    type: "string",
    label: "Country",
    max_length: 2,
    help_text: "Two-letter country code.",
  },
]);

export const collection = def(
  "collection",
  "Collection",
  "Collections",
  "Search by id, name or subbrand",
  { has_active: true },
  [
    id,
    {
      name: "brand",
      type: "field",
      label: "Brand",
      required: true,
      relationship_resource: "brand",
      extra_filters: { is_valid: "true" },
      list: true,
    },
    {
      name: "year",
      type: "integer",
      label: "Year",
      required: true,
      min: 1990,
      max: 2100,
      list: true,
      sortable: true,
    },
    {
      name: "name",
      type: "string",
      label: "Name",
      required: true,
      max_length: 120,
      list: true,
      sortable: true,
    },
    { name: "subbrand", type: "string", label: "Subbrand", max_length: 120, list: true },
    isActive,
  ],
);

export const category = def("category", "Category", "Categories", "Search by id or name", {}, [
  id,
  {
    name: "name",
    type: "string",
    label: "Name",
    required: true,
    max_length: 120,
    list: true,
    sortable: true,
  },
  {
    name: "parent",
    type: "field",
    label: "Parent category",
    relationship_resource: "category",
    list: true,
  },
]);

export const product = def(
  "product",
  "Product",
  "Products",
  "Search by id, sku or name",
  { has_active: true },
  [
    id,
    {
      name: "brand",
      type: "field",
      label: "Brand",
      required: true,
      relationship_resource: "brand",
      extra_filters: { is_valid: "true" },
      list: true,
    },
    {
      name: "collection",
      type: "field",
      label: "Collection",
      required: true,
      relationship_resource: "collection",
      filter: { field: "brand", param: "brand" },
      help_text: "Choose the brand first.",
      list: true,
    },
    {
      name: "sku",
      type: "string",
      label: "SKU",
      required: true,
      max_length: 60,
      list: true,
      sortable: true,
    },
    {
      name: "display_name",
      type: "string",
      label: "Display name",
      required: true,
      max_length: 200,
      list: true,
      sortable: true,
    },
    { name: "description", type: "string", label: "Description", max_length: 2000 },
    {
      name: "price",
      type: "decimal",
      label: "Price",
      required: true,
      help_text: "Wholesale cost in dollars.",
      list: true,
      sortable: true,
    },
    { name: "category", type: "field", label: "Category", relationship_resource: "category" },
    isActive,
  ],
);

export const productvariation = def(
  "productvariation",
  "Product variation",
  "Product variations",
  "Search by id, sku or color",
  { has_active: true },
  [
    id,
    {
      name: "product",
      type: "field",
      label: "Product",
      required: true,
      relationship_resource: "product",
      list: true,
    },
    {
      name: "sku",
      type: "string",
      label: "SKU",
      required: true,
      max_length: 60,
      list: true,
      sortable: true,
    },
    {
      name: "color",
      type: "string",
      label: "Color",
      required: true,
      max_length: 80,
      list: true,
      sortable: true,
    },
    { name: "price", type: "decimal", label: "Price", required: true, list: true, sortable: true },
    { name: "images", type: "image", label: "Images", read_only: true },
    isActive,
  ],
);

export const RETAILER_STATUSES: Choice[] = [
  { value: "pending", display_name: "pending" },
  { value: "active", display_name: "active" },
  { value: "inactive", display_name: "inactive" },
  { value: "denied", display_name: "denied" },
];

export const retailer = def(
  "retailer",
  "Retailer",
  "Retailers",
  "Search by id, store name or e-mail",
  { can_delete: false },
  [
    id,
    {
      name: "store_name",
      type: "string",
      label: "Store name",
      required: true,
      max_length: 120,
      list: true,
      sortable: true,
    },
    { name: "store_email", type: "email", label: "Store e-mail", list: true, sortable: true },
    { name: "store_phone", type: "string", label: "Store phone", help_text: "+1-###-###-####" },
    { name: "business_name", type: "string", label: "Business name", max_length: 200 },
    ...addressFields,
    { name: "resale_number", type: "string", label: "Resale number", help_text: "##-##########-#" },
    { name: "segments", type: "multiplechoice", label: "Segments", choices: SEGMENTS },
    { name: "price_tier", type: "choice", label: "Price tier", choices: PRICE_TIERS },
    {
      name: "status",
      type: "choice",
      label: "Status",
      required: true,
      choices: RETAILER_STATUSES,
      list: true,
      sortable: true,
    },
    { name: "position", type: "string", label: "Position", max_length: 120 },
    {
      name: "bt_merchant_id",
      type: "string",
      label: "Payout account",
      read_only: true,
      help_text: "Set when payout is set up.",
    },
    {
      name: "created",
      type: "datetime",
      label: "Created",
      read_only: true,
      list: true,
      sortable: true,
    },
  ],
);

export const retailercontact = def(
  "retailercontact",
  "Retailer contact",
  "Retailer contacts",
  "Search by id, name or e-mail",
  {},
  [
    id,
    {
      name: "retailer",
      type: "field",
      label: "Retailer",
      required: true,
      relationship_resource: "retailer",
      list: true,
    },
    {
      name: "first_name",
      type: "string",
      label: "First name",
      required: true,
      max_length: 100,
      list: true,
      sortable: true,
    },
    {
      name: "last_name",
      type: "string",
      label: "Last name",
      required: true,
      max_length: 100,
      list: true,
      sortable: true,
    },
    { name: "email", type: "email", label: "E-mail", list: true, sortable: true },
    {
      name: "job_title",
      type: "choice",
      label: "Job title",
      choices: JOB_TITLES.map((t) => ({ value: t, display_name: t })),
    },
    { name: "job_title_other", type: "string", label: "Job title (other)", max_length: 100 },
    { name: "phone", type: "string", label: "Phone", help_text: "+1-###-###-####", list: true },
    {
      name: "celphone",
      type: "string",
      label: "Cell phone",
      help_text: "+1-###-###-####",
      list: true,
    },
    ...addressFields,
  ],
);

export const retailerbrand = def(
  "retailerbrand",
  "Retailer-brand link",
  "Retailer-brand links",
  "Search by id or retailer id",
  {},
  [
    id,
    {
      name: "retailer",
      type: "field",
      label: "Retailer",
      required: true,
      relationship_resource: "retailer",
      list: true,
    },
    {
      name: "brand",
      type: "field",
      label: "Brand",
      required: true,
      relationship_resource: "brand",
      extra_filters: { is_valid: "true" },
      list: true,
    },
    {
      name: "status",
      type: "choice",
      label: "Status",
      required: true,
      choices: choices("authorized", "revoked"),
      list: true,
      sortable: true,
    },
    {
      name: "created",
      type: "datetime",
      label: "Created",
      read_only: true,
      list: true,
      sortable: true,
    },
  ],
);

export const brandrequest = def(
  "brandrequest",
  "Brand request",
  "Brand requests",
  "Search by id or brand name",
  {},
  [
    id,
    {
      name: "retailer",
      type: "field",
      label: "Retailer",
      required: true,
      relationship_resource: "retailer",
      list: true,
    },
    {
      name: "brand_name",
      type: "string",
      label: "Brand name",
      required: true,
      max_length: 120,
      list: true,
      sortable: true,
    },
    {
      name: "brand",
      type: "field",
      label: "Matched brand",
      relationship_resource: "brand",
      extra_filters: { is_valid: "true" },
      list: true,
    },
    {
      name: "brand_purchase_amount",
      type: "decimal",
      label: "Yearly purchases",
      help_text: "In dollars.",
    },
    {
      name: "your_interest_in_this_brand",
      type: "list",
      label: "Interest in this brand",
      choices: BRAND_INTERESTS.map((i) => ({ value: i.value, display_name: i.label })),
    },
    { name: "brand_contact_email", type: "email", label: "Brand contact e-mail" },
    { name: "brand_contact_name", type: "string", label: "Brand contact name", max_length: 120 },
    {
      name: "status",
      type: "choice",
      label: "Status",
      required: true,
      choices: choices("requested", "authorized", "declined"),
      list: true,
      sortable: true,
    },
  ],
);

export const LISTING_STATUSES = choices("payoutneeded", "active");

export const listing = def(
  "listing",
  "Listing",
  "Listings",
  "Search by id or sku",
  { can_create: false, can_delete: false },
  [
    id,
    {
      name: "provider",
      type: "field",
      label: "Provider",
      read_only: true,
      relationship_resource: "retailer",
      list: true,
    },
    {
      name: "productvariation",
      type: "field",
      label: "Product variation",
      read_only: true,
      relationship_resource: "productvariation",
      list: true,
    },
    {
      name: "brand",
      type: "field",
      label: "Brand",
      read_only: true,
      relationship_resource: "brand",
      list: true,
    },
    {
      name: "listing_type",
      type: "choice",
      label: "Type",
      read_only: true,
      choices: choices("sell", "swap"),
      list: true,
      sortable: true,
    },
    {
      name: "status",
      type: "choice",
      label: "Status",
      required: true,
      choices: LISTING_STATUSES,
      list: true,
      sortable: true,
    },
    {
      name: "total_units",
      type: "integer",
      label: "Units",
      read_only: true,
      list: true,
      sortable: true,
    },
    { name: "price", type: "decimal", label: "Price", read_only: true, list: true, sortable: true },
    {
      name: "created",
      type: "datetime",
      label: "Created",
      read_only: true,
      list: true,
      sortable: true,
    },
  ],
);

export const request = def(
  "request",
  "Request",
  "Requests",
  "Search by id or sku",
  { can_create: false, can_delete: false },
  [
    id,
    {
      name: "requestor",
      type: "field",
      label: "Requestor",
      read_only: true,
      relationship_resource: "retailer",
      list: true,
    },
    {
      name: "productvariation",
      type: "field",
      label: "Product variation",
      read_only: true,
      relationship_resource: "productvariation",
      list: true,
    },
    {
      name: "brand",
      type: "field",
      label: "Brand",
      read_only: true,
      relationship_resource: "brand",
      list: true,
    },
    {
      name: "total_units",
      type: "integer",
      label: "Units",
      read_only: true,
      list: true,
      sortable: true,
    },
    { name: "price", type: "decimal", label: "Price", read_only: true, list: true, sortable: true },
    {
      name: "created",
      type: "datetime",
      label: "Created",
      read_only: true,
      list: true,
      sortable: true,
    },
  ],
);

export const salesrep = def(
  "salesrep",
  "Sales rep",
  "Sales reps",
  "Search by id, territory or name",
  {},
  [
    id,
    {
      name: "territory_name",
      type: "string",
      label: "Territory",
      required: true,
      max_length: 100,
      list: true,
      sortable: true,
    },
    {
      name: "first_name",
      type: "string",
      label: "First name",
      required: true,
      max_length: 100,
      list: true,
      sortable: true,
    },
    {
      name: "last_name",
      type: "string",
      label: "Last name",
      required: true,
      max_length: 100,
      list: true,
      sortable: true,
    },
    {
      name: "states",
      type: "multiplechoice",
      label: "States",
      help_text: "The states of the territory: the rep's report lists the retailers there.",
      choices: choices(...US_STATE_CODES),
      list: true,
    },
  ],
);

/** Every resource, by class_name (also the order of the hub's list). */
export const RESOURCES = {
  brand,
  company,
  collection,
  category,
  product,
  productvariation,
  retailer,
  retailercontact,
  retailerbrand,
  brandrequest,
  listing,
  request,
  salesrep,
} as const satisfies Record<string, ResourceDef>;

export type ResourceName = keyof typeof RESOURCES;
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

export function isResourceName(v: string): v is ResourceName {
  return Object.prototype.hasOwnProperty.call(RESOURCES, v);
}

export function getResource(name: string): ResourceDef | null {
  return isResourceName(name) ? RESOURCES[name] : null;
}

/** Generic list page size, CSV export chunk, chooser suggestions (docs/product/screens.md, "Limits"). */
export const LIST_PAGE_SIZE = 50;
export const EXPORT_CHUNK = 100;
export const CHOOSER_LIMIT = 100;
