/**
 * A NUL (U+0000) in what a user sends: one field of every form, every upload's file name (the pages and the
 * stock import API). The form is read once, in app/utils/form.server.ts (readFormData takes the NUL out,
 * parseSubmission refuses the form): every answer is a 4xx that says why (CONTROL_REFUSED on the form or
 * CONTROL_FIELD_REFUSED under the field), never a 5xx, a stack or SQL. Plain HTTP (tests/e2e/http.ts), no browser:
 * each page is fetched as its user sees it, each of its post forms sent back as a browser without scripts would
 * send it, with a NUL in its first text field, or in its file's name.
 */
import { eq } from "drizzle-orm";
import { createApiToken } from "../../db/queries/api-tokens";
import { listings } from "../../db/schema";
import { CONTROL_FIELD_REFUSED, CONTROL_REFUSED } from "../../app/utils/form.server";
import { createRetailer } from "../factories";
import { createOrderAt } from "../factories/orders";
import { createFormFixtures, TINY_PNG, type FormFixtures } from "./form-fixtures";
import { htmlDecode, inputValue, leakedTrace, type HttpClient, type HttpResponse } from "./http";

let fx: FormFixtures;
let messagesPath = "";
let variationId = 0;
let rmaOrderId = 0;

beforeAll(async () => {
  fx = await createFormFixtures("nul");
  messagesPath = `/messages/swap/${fx.swapOrderId}`;
  const [row] = await fx.dbh.db
    .select({ variationId: listings.variationId })
    .from(listings)
    .where(eq(listings.id, fx.listingId));
  variationId = row.variationId;
  // A delivered purchase of the retailer, so the RMA wizard's first step has a line to return.
  const seller = await createRetailer(fx.dbh.db, { payout: true });
  const delivered = await createOrderAt(fx.dbh.db, "delivered", {
    providerId: seller.retailer.id,
    receiverId: fx.retailerId,
    lines: [{ variationId, sizes: { S: 2 } }],
    deliveredAt: new Date(Date.now() - 3_600_000),
  });
  rmaOrderId = delivered.order.id;
});

afterAll(async () => {
  await fx?.dbh.close();
});

// ---------------------------------------------------------------------------------------------------------
// The post forms of a page, read from its HTML as a browser without scripts reads them.

type Field = { name: string; value: string; kind: "text" | "hidden" | "choice" | "file" };
type PageForm = { action: string; multipart: boolean; fields: Field[]; testId: string };

const attr = (tag: string, name: string): string | null => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? htmlDecode(m[1]) : null;
};

const TEXT_TYPES = new Set(["text", "email", "search", "tel", "url", "password", "number", ""]);

function pageForms(html: string, pagePath: string): PageForm[] {
  const forms: PageForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const open = `<form${m[1]}>`;
    if ((attr(open, "method") ?? "get").toLowerCase() !== "post") continue;
    const inner = m[2];
    const fields: Field[] = [];
    let submit: Field | null = null;
    for (const t of inner.matchAll(
      /<(input|textarea|select|button)\b([^>]*)>(?:([\s\S]*?)<\/(?:textarea|select)>)?/g,
    )) {
      const tag = `<${t[1]}${t[2]}>`;
      const name = attr(tag, "name");
      if (!name || / disabled=""/.test(tag)) continue;
      if (t[1] === "button") {
        if ((attr(tag, "type") ?? "submit") === "submit" && !submit)
          submit = { name, value: attr(tag, "value") ?? "", kind: "hidden" };
        continue;
      }
      if (t[1] === "textarea") {
        fields.push({ name, value: htmlDecode(t[3] ?? ""), kind: "text" });
        continue;
      }
      if (t[1] === "select") {
        const options = [...(t[3] ?? "").matchAll(/<option\b([^>]*)>/g)].map((o) => o[1]);
        const chosen =
          options.find((o) => / selected=""/.test(o)) ??
          options.find((o) => attr(`<o${o}>`, "value"));
        fields.push({
          name,
          value: chosen ? (attr(`<o${chosen}>`, "value") ?? "") : "",
          kind: "choice",
        });
        continue;
      }
      const type = (attr(tag, "type") ?? "").toLowerCase();
      if (type === "submit" || type === "button" || type === "reset" || type === "image") continue;
      if (type === "checkbox" || type === "radio") {
        if (/ checked=""/.test(tag))
          fields.push({ name, value: attr(tag, "value") ?? "on", kind: "choice" });
        continue;
      }
      if (type === "file") {
        fields.push({ name, value: attr(tag, "accept") ?? "", kind: "file" });
        continue;
      }
      fields.push({
        name,
        value: attr(tag, "value") ?? "",
        kind:
          type === "hidden"
            ? "hidden"
            : TEXT_TYPES.has(type) || type === "date"
              ? "text"
              : "choice",
      });
    }
    if (submit) fields.push(submit);
    forms.push({
      action: attr(open, "action") ?? pagePath,
      multipart: (attr(open, "enctype") ?? "").includes("multipart"),
      fields,
      testId: attr(open, "data-testid") ?? "",
    });
  }
  return forms;
}

/** What a file input is sent: a CSV for a stock or spreadsheet upload, a PNG for a picture. */
function fileFor(accept: string, nulName: boolean): File {
  const csv = /csv|sheet|xlsx/.test(accept);
  const zip = /zip/.test(accept);
  const name = `${csv ? "stock" : zip ? "pictures" : "photo"}\u0000.${csv ? "csv" : zip ? "zip" : "png"}`;
  const body = csv ? "code,size,quantity\nX-1,M,1\n" : TINY_PNG;
  return new File([body], nulName ? name : name.replace("\u0000", ""), {
    type: csv ? "text/csv" : zip ? "application/zip" : "image/png",
  });
}

/** The form as a browser sends it, with a NUL after the value of its first text field, or in its file's name. */
function withNul(form: PageForm): { body: URLSearchParams | FormData; where: string } {
  const file = form.fields.find((f) => f.kind === "file");
  const target = file ?? form.fields.find((f) => f.kind === "text");
  const where = file ? `the file name of "${file.name}"` : `"${target?.name}"`;
  if (form.multipart || file) {
    const body = new FormData();
    for (const f of form.fields)
      if (f.kind === "file") body.append(f.name, fileFor(f.value, true));
      else body.append(f.name, f === target ? `${f.value}\u0000` : f.value);
    return { body, where };
  }
  const body = new URLSearchParams();
  for (const f of form.fields) body.append(f.name, f === target ? `${f.value}\u0000` : f.value);
  return { body, where };
}

function refusesWithMessage(r: HttpResponse): boolean {
  const text = htmlDecode(r.body);
  return (
    r.status >= 400 &&
    r.status < 500 &&
    (text.includes(CONTROL_REFUSED) || text.includes(CONTROL_FIELD_REFUSED))
  );
}

const describeAnswer = (r: HttpResponse) =>
  `${r.status} ${r.location ?? ""} ${htmlDecode(
    r.body.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+/g, " ")
    .slice(0, 300)}`;

/** The pages with forms, as the user who sees them. */
function pagesWithForms(): [who: "anonymous" | "retailer" | "staff" | "setup", path: string][] {
  return [
    ["anonymous", "/signin"],
    ["anonymous", "/register"],
    ["anonymous", "/password-reset"],
    ["setup", "/retailer-setup/"],
    ["retailer", "/settings/store"],
    ["retailer", "/settings/contact"],
    ["retailer", "/settings/password"],
    ["retailer", "/settings/api"],
    ["retailer", "/settings/two-factor"],
    ["retailer", "/settings/payout"],
    ["retailer", "/alerts/matches"],
    ["retailer", "/brands/?tab=add"],
    ["retailer", "/stock-import"],
    ["retailer", `/updatelisting/${fx.listingId}`],
    ["retailer", `/updaterequest/${fx.requestId}`],
    ["retailer", fx.listingStages.style],
    ["retailer", fx.listingStages.sizes],
    ["retailer", fx.listingStages.photos],
    ["retailer", fx.listingStages.terms],
    ["retailer", fx.requestStages.style],
    ["retailer", fx.requestStages.sizes],
    ["retailer", fx.requestStages.terms],
    ["retailer", messagesPath],
    ["retailer", `/transaction/swap/${fx.swapOrderId}`],
    ["retailer", `/create-rma/${rmaOrderId}`],
    ["staff", "/admin/retailers"],
    ["staff", "/admin/retailer-upload"],
    ["staff", `/admin/productvariationmanagement/${variationId}`],
    ["staff", "/admin/brand/new"],
    ["staff", `/admin/brand/${fx.brandId}`],
    ["staff", "/admin/validate"],
    ["staff", "/act-as"],
  ];
}

test(
  "a NUL in one field of every form, or in an upload's file name: a 4xx that says why",
  { timeout: 120_000 },
  async () => {
    const clients: Record<string, HttpClient | null> = {
      anonymous: null,
      retailer: fx.retailer,
      staff: fx.staff,
      setup: fx.setup,
    };
    const { HttpClient: Client } = await import("./http");
    const failures: string[] = [];
    let sent = 0;
    for (const [who, path] of pagesWithForms()) {
      const c = clients[who] ?? new Client();
      const page = await c.get(path);
      if (page.status !== 200) {
        failures.push(`${who} GET ${path}: ${page.status}`);
        continue;
      }
      const forms = pageForms(page.body, path).filter(
        // signing out ends the session the other pages need
        (f) => !f.action.startsWith("/logout"),
      );
      if (forms.length === 0) failures.push(`${who} ${path}: no post form found`);
      for (const form of forms) {
        // A form of buttons and hidden fields only (an intent, an id) has no text a user types.
        if (!form.fields.some((f) => f.kind === "text" || f.kind === "file")) continue;
        const { body, where } = withNul(form);
        const r =
          body instanceof FormData
            ? await c.request(form.action, { method: "POST", body })
            : await c.postForm(form.action, body);
        sent += 1;
        const label = `${who} POST ${form.action} (form ${form.testId || "?"} on ${path}), NUL in ${where}`;
        if (!refusesWithMessage(r)) failures.push(`${label}: ${describeAnswer(r)}`);
        const trace = leakedTrace(r.body);
        if (trace) failures.push(`${label}: stack trace ${trace}`);
      }
    }
    console.log(`[nul-input] ${sent} forms sent a NUL`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(20);
  },
);

test("the stock import API: a NUL in the file's name or a field is a 400 JSON that says why", async () => {
  const { token } = await createApiToken(fx.dbh.db, {
    retailerId: fx.retailerId,
    createdBy: null,
    name: "nul",
  });
  const { baseUrl } = await import("./http");
  const send = async (form: FormData) => {
    const r = await fetch(`${baseUrl}/api/stock-import`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: r.status, body: await r.text() };
  };
  const byName = new FormData();
  byName.append("file", fileFor("text/csv", true));
  const byField = new FormData();
  byField.append("file", fileFor("text/csv", false));
  byField.append("choose", "X-1\u0000:1");
  for (const form of [byName, byField]) {
    const r = await send(form);
    expect(r.status, r.body).toBe(400);
    expect(JSON.parse(r.body)).toEqual({ error: CONTROL_REFUSED });
  }
});

test("a NUL in an address's query (a search, a filter): 400 that says why, before any page reads it", async () => {
  const c = fx.retailer;
  for (const path of ["/buy/?q=a%00b", "/orders/pending?q=%00", "/alerts/matches?size=%00"]) {
    const r = await c.get(path);
    expect(r.status, `${path}: ${describeAnswer(r)}`).toBe(400);
    expect(r.body).toContain("(NUL)");
  }
  const staffList = await fx.staff.get("/admin/brand?search=x%00");
  expect(staffList.status).toBe(400);
});

test("the RMA wizard: a NUL in a line's other reason is refused on its step, the rest of the draft kept", async () => {
  const c = fx.retailer;
  const page = await c.get(`/create-rma/${rmaOrderId}`);
  expect(page.status).toBe(200);
  const line = /name="q\.([^"]+)"/.exec(page.body)?.[1];
  expect(line, "the units step shows a line").toBeTruthy();
  const r = await c.postForm(`/create-rma/${rmaOrderId}`, {
    step: "units",
    [`q.${line}`]: "1",
    [`r.${line}`]: "4",
    [`o.${line}`]: "torn\u0000 strap",
  });
  expect(r.status, describeAnswer(r)).toBe(400);
  expect(htmlDecode(r.body)).toContain(CONTROL_REFUSED);
  expect(inputValue(r.body, `q.${line}`)).toBe("1");
  expect(inputValue(r.body, `o.${line}`)).toBe("torn strap");
});
