// The forms of an HTML page as a browser without JavaScript would submit them (Node built-ins only), for
// scripts that drive the app over HTTP (scripts/bench-orders.mjs):
//
//   const f = findForm(html, { testId: "form-respond" }) ?? findForm(html, { intent: "respond" });
//   const body = f.fields;                     // [[name, value], ...]: hidden inputs, values, checked boxes
//   const target = new URL(f.action, pageUrl); // the form's action ("" = the page itself)
//
// Regular expressions, not a DOM: good for the server-rendered markup of this app (React output: quoted
// attributes, no nested forms), not for arbitrary HTML.

const ENTITIES = {
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
};

/** Decodes the entities React writes in text and attribute values. */
export function htmlDecode(s) {
  return s.replace(/&(?:quot|#x27|#39|lt|gt|amp);/g, (m) => ENTITIES[m]);
}

/** The attributes of one tag's inner text (`<input type="x" disabled>` → { type: "x", disabled: "" }). */
export function attributes(tagInner) {
  const out = {};
  const re = /([^\s=/>]+)(?:\s*=\s*"([^"]*)")?/g;
  let m;
  while ((m = re.exec(tagInner))) {
    const name = m[1].toLowerCase();
    if (name.startsWith("<")) continue;
    out[name] = m[2] === undefined ? "" : htmlDecode(m[2]);
  }
  return out;
}

/** The successful controls of a form's inner HTML, in document order (what the browser would send). */
function controls(inner) {
  const fields = [];
  const re = /<(input|select|textarea)\b([^>]*)>/gi;
  let m;
  while ((m = re.exec(inner))) {
    const tag = m[1].toLowerCase();
    const a = attributes(m[2]);
    let body = "";
    if (tag !== "input") {
      const close = inner.toLowerCase().indexOf(`</${tag}>`, re.lastIndex);
      body = close < 0 ? "" : inner.slice(re.lastIndex, close);
      if (close >= 0) re.lastIndex = close + tag.length + 3;
    }
    if (!a.name || "disabled" in a) continue;
    if (tag === "input") {
      const type = (a.type ?? "text").toLowerCase();
      if (["submit", "button", "reset", "image", "file"].includes(type)) continue;
      if ((type === "radio" || type === "checkbox") && !("checked" in a)) continue;
      fields.push([a.name, a.value ?? (type === "radio" || type === "checkbox" ? "on" : "")]);
    } else if (tag === "select") {
      const options = [...body.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/gi)].map((o) => ({
        a: attributes(o[1]),
        text: o[2],
      }));
      const chosen = options.find((o) => "selected" in o.a) ?? options[0];
      if (chosen) fields.push([a.name, chosen.a.value ?? htmlDecode(chosen.text.trim())]);
    } else {
      fields.push([a.name, htmlDecode(body)]);
    }
  }
  return fields;
}

/** Every <form> of the page: { attrs, action, method, fields, inner }. */
export function forms(html) {
  const out = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attrs = attributes(m[1]);
    out.push({
      attrs,
      action: attrs.action ?? "",
      method: (attrs.method ?? "get").toLowerCase(),
      fields: controls(m[2]),
      inner: m[2],
    });
  }
  return out;
}

/**
 * The first form matching every given criterion: testId (data-testid of the form), intent (the value of its
 * `intent` field), action (its action attribute, exact), has (a field name it contains).
 */
export function findForm(html, { testId, intent, action, has } = {}) {
  return (
    forms(html).find(
      (f) =>
        (testId === undefined || f.attrs["data-testid"] === testId) &&
        (intent === undefined || f.fields.some(([k, v]) => k === "intent" && v === intent)) &&
        (action === undefined || f.action === action) &&
        (has === undefined || f.fields.some(([k]) => k === has)),
    ) ?? null
  );
}

/** The form's fields with some replaced (or added): what the user typed over the defaults. */
export function fill(form, values) {
  const out = new URLSearchParams();
  const done = new Set();
  for (const [k, v] of form.fields) {
    if (Object.hasOwn(values, k)) {
      if (!done.has(k) && values[k] !== null && values[k] !== undefined)
        out.append(k, String(values[k]));
      done.add(k);
    } else out.append(k, v);
  }
  for (const [k, v] of Object.entries(values))
    if (!done.has(k) && v !== null && v !== undefined) out.append(k, String(v));
  return out;
}

/** The value of a `data-<name>` attribute on the element carrying data-testid="<testId>", or null. */
export function dataAttr(html, testId, name) {
  const tag = new RegExp(`<[a-z]+\\b[^>]*\\bdata-testid="${testId}"[^>]*>`, "i").exec(html)?.[0];
  if (!tag) return null;
  const v = attributes(tag.slice(1, -1))[`data-${name}`];
  return v === undefined ? null : v;
}
