/**
 * Every card form posts the names the one card parser reads (app/utils/card-form.server.ts, with
 * domain/card-form.ts's schema). Each card form is rendered on the server (the page's first paint) and its
 * `name=` attributes are compared with the schema's keys. A Stripe Elements form, filled as its submit handler
 * fills it (the PaymentMethod id, last four and brand Stripe answered), gives a card that keeps its last four
 * digits and its type: the order pages' parser once read other names than the card step posted.
 */
import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
} from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { CardFields } from "../../app/components/CardFields";
import { CardStep, type CardStepData } from "../../app/components/orders/PayCard";
import SettingsCardOnFile from "../../app/routes/settings.card";
import { paymentMethodFromForm } from "../../app/utils/card-form.server";
import { CARD_FIELDS, cardFormSchema } from "../../domain/card-form";

/** The markup of `element` as a page renders it, inside a router (the forms are Remix forms) with `loaderData`. */
async function render(element: ReactElement, loaderData: object | null = null): Promise<string> {
  const handler = createStaticHandler([
    { id: "page", path: "/", element, loader: () => loaderData },
  ]);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("the page redirected");
  return renderToString(
    createElement(StaticRouterProvider, {
      router: createStaticRouter(handler.dataRoutes, context),
      context,
      hydrate: false,
    }),
  );
}

/** The names the forms in `html` post, once each (a card form on a page is one form). */
function postedNames(html: string): string[] {
  const forms = [...html.matchAll(/<form[\s\S]*?<\/form>/g)].map((m) => m[0]).join("");
  return [
    ...new Set(
      [...forms.matchAll(/<(?:input|select|textarea)\b[^>]*?\bname="([^"]+)"/g)].map((m) => m[1]),
    ),
  ];
}

/** A page's own fields beside the card: the one-submission ids. */
const NOT_CARD = new Set(["form_id", "submission_id"]);

const schemaKeys = Object.keys(
  cardFormSchema({ today: new Date(), provider: "stripe" }).innerType().shape,
).sort();

const stepData = (mode: CardStepData["mode"], saved: boolean): CardStepData => ({
  mode,
  publishableKey: mode === "elements" ? "pk_test_x" : null,
  card: saved ? { description: "Visa", lastFour: "4242" } : null,
  provider: mode === "elements" ? "stripe" : "sandbox",
  formId: "00000000-0000-4000-8000-000000000000",
});

const cardStep = (mode: CardStepData["mode"], saved = false) =>
  createElement(CardStep, {
    data: stepData(mode, saved),
    errors: {},
    busy: false,
    submitLabel: "Pay",
    back: { to: "/cart", label: "Back" },
  });

const settingsData = (mode: "test_card" | "elements") => ({
  card: null,
  mode,
  provider: mode === "elements" ? "stripe" : "sandbox",
  publishableKey: mode === "elements" ? "pk_test_x" : null,
  submissionId: "00000000-0000-4000-8000-000000000000",
});

const CARD_FORMS: Record<string, () => Promise<string>> = {
  "checkout card step, test card": () => render(cardStep("test_card")),
  "checkout card step, test card or the saved card": () => render(cardStep("test_card", true)),
  "checkout card step, Stripe Elements": () => render(cardStep("elements")),
  "settings card on file, test card": () =>
    render(createElement(SettingsCardOnFile), settingsData("test_card")),
  "settings card on file, Stripe Elements": () =>
    render(createElement(SettingsCardOnFile), settingsData("elements")),
  "order page card fields": () => render(createElement("form", null, createElement(CardFields))),
};

describe("card forms", () => {
  it("the parser's schema reads exactly the card field names", () => {
    expect(schemaKeys).toEqual(Object.values(CARD_FIELDS).sort());
  });

  for (const [form, html] of Object.entries(CARD_FORMS)) {
    it(`${form} posts only names the parser reads`, async () => {
      const names = postedNames(await html()).filter((n) => !NOT_CARD.has(n));
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => !schemaKeys.includes(n))).toEqual([]);
    });
  }

  it("together post every name the parser reads", async () => {
    const all = new Set(
      (await Promise.all(Object.values(CARD_FORMS).map((html) => html()))).flatMap(postedNames),
    );
    expect(schemaKeys.filter((k) => !all.has(k))).toEqual([]);
  });
});

describe("the card step's Stripe Elements form", () => {
  it("gives the order pages' card parser the last four digits and the type of the card Stripe read", async () => {
    const names = postedNames(await render(cardStep("elements")));
    expect(names).toContain("payment_method_id");
    // What the form's submit handler writes: the PaymentMethod's id, last four and brand.
    const last4 = names.find((n) => /last4/.test(n));
    const brand = names.find((n) => /brand/.test(n));
    expect(last4).toBeDefined();
    expect(brand).toBeDefined();
    const form = new FormData();
    for (const n of names) form.set(n, "");
    form.set("card_choice", "new");
    form.set("payment_method_id", "pm_card_visa");
    form.set(last4!, "4242");
    form.set(brand!, "visa");
    expect(paymentMethodFromForm(form, new Date(), "stripe")).toEqual({
      ok: true,
      paymentMethod: { paymentMethodId: "pm_card_visa", lastFour: "4242", description: "Visa" },
    });
  });

  it("is refused without the Stripe provider, with the test-card message", () => {
    const form = new FormData();
    form.set("payment_method_id", "pm_card_visa");
    expect(paymentMethodFromForm(form, new Date(), "sandbox")).toMatchObject({
      ok: false,
      errors: { "": expect.stringContaining("test card numbers") },
    });
  });
});
