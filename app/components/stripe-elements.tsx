import { Form } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { CARD_FIELDS } from "../../domain/card-form";
import { ErrorList } from "./forms";

/** The part of Stripe.js (loaded from Stripe, only when Stripe keys are configured) that our card forms use. */
export type StripeJs = {
  elements(): {
    create(type: "card", opts?: object): { mount(el: HTMLElement): void; destroy(): void };
  };
  createPaymentMethod(opts: { type: "card"; card: unknown }): Promise<{
    paymentMethod?: { id: string; card?: { last4?: string; brand?: string } };
    error?: { message?: string };
  }>;
};

/** The part of Stripe.js the payout form uses (ADR 0050); the sandbox's stand-in (/sandbox/stripe.js) has it too. */
export type StripeTokensJs = {
  createToken(
    kind: "account" | "person" | "bank_account",
    data: object,
  ): Promise<{
    token?: { id: string; bank_account?: { last4?: string } };
    error?: { message?: string; param?: string; code?: string };
  }>;
};

/** Loads a Stripe.js script once per page (Stripe's, or a stand-in with the same `window.Stripe`). */
export function loadStripeJs(src: string): Promise<void> {
  if ((window as unknown as { Stripe?: unknown }).Stripe) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`${src} did not load`));
    document.head.appendChild(s);
  });
}

/** Stripe.js's token maker for `publishableKey`, once the script at `src` has loaded; null before (or without). */
export function useStripeTokens(config: { src: string; publishableKey: string } | null): {
  stripe: StripeTokensJs | null;
  failed: boolean;
} {
  const [stripe, setStripe] = useState<StripeTokensJs | null>(null);
  const [failed, setFailed] = useState(false);
  const src = config?.src;
  const key = config?.publishableKey;
  useEffect(() => {
    if (!src || !key) return;
    let cancelled = false;
    loadStripeJs(src).then(
      () => {
        const factory = (window as unknown as { Stripe?: (k: string) => StripeTokensJs }).Stripe;
        if (!cancelled && factory) setStripe(factory(key));
      },
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
    };
  }, [src, key]);
  return { stripe, failed };
}

/**
 * Mounts Stripe Elements' card field into `mountRef` (loading Stripe.js once), for the card-on-file and
 * checkout forms: the card number never touches our server; the form posts the PaymentMethod id.
 */
export function useStripeCardElement(publishableKey: string) {
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: StripeJs; card: unknown } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let card: { destroy(): void } | null = null;
    const w = window as unknown as { Stripe?: (key: string) => StripeJs };
    const init = () => {
      if (cancelled || !w.Stripe || !mountRef.current) return;
      const stripe = w.Stripe(publishableKey);
      const el = stripe.elements().create("card", { hidePostalCode: true });
      el.mount(mountRef.current);
      card = el;
      stripeRef.current = { stripe, card: el };
      setReady(true);
    };
    loadStripeJs("https://js.stripe.com/v3/").then(init, () =>
      setError("The card form could not be loaded. Please try again."),
    );
    return () => {
      cancelled = true;
      card?.destroy();
    };
  }, [publishableKey]);

  return { mountRef, stripeRef, error, setError, ready };
}

/** The card field Stripe Elements mounts into, with the hook's error under it (both Elements card forms). */
export function StripeCardField({
  mountRef,
  error,
}: {
  mountRef: React.RefObject<HTMLDivElement>;
  error: string | null;
}) {
  return (
    <>
      <div className="field">
        <label>Card</label>
        <div
          ref={mountRef}
          className="stripe-card-element"
          style={{ padding: "0.6rem", border: "1px solid #ccc", borderRadius: 6 }}
        />
      </div>
      <ErrorList errors={error} />
      <noscript>The card form needs JavaScript (Stripe Elements).</noscript>
    </>
  );
}

/**
 * The Stripe Elements card form (Settings → Card On File, the checkouts' card step): the card never touches
 * our server. On submit Stripe makes a PaymentMethod in the browser; the form then posts its id, last four
 * and brand (CARD_FIELDS, the names the card parser reads) with the `hidden` fields, and the id is cleared
 * right after (a retry after a decline needs a new PaymentMethod).
 */
export function ElementsCardForm({
  publishableKey,
  hidden,
  testId,
  busy = false,
  submitTestId,
  children,
}: {
  publishableKey: string;
  hidden: Record<string, string>;
  testId: string;
  busy?: boolean;
  submitTestId?: string;
  /** The submit button's label. */
  children: ReactNode;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const pmRef = useRef<HTMLInputElement>(null);
  const last4Ref = useRef<HTMLInputElement>(null);
  const brandRef = useRef<HTMLInputElement>(null);
  const { mountRef, stripeRef, error, setError, ready } = useStripeCardElement(publishableKey);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    if (pmRef.current?.value) return; // second pass: the id is set, let the form post
    e.preventDefault();
    const s = stripeRef.current;
    if (!s) return;
    const result = await s.stripe.createPaymentMethod({ type: "card", card: s.card });
    if (result.error || !result.paymentMethod) {
      setError(result.error?.message ?? "The card could not be read. Please try again.");
      return;
    }
    if (pmRef.current) pmRef.current.value = result.paymentMethod.id;
    if (last4Ref.current) last4Ref.current.value = result.paymentMethod.card?.last4 ?? "";
    if (brandRef.current) brandRef.current.value = result.paymentMethod.card?.brand ?? "";
    formRef.current?.requestSubmit();
    // The submit event ran synchronously (the form data is taken): a retry after a decline needs a new id.
    if (pmRef.current) pmRef.current.value = "";
  }

  return (
    <Form
      method="post"
      ref={formRef}
      onSubmit={onSubmit}
      className="form-stack"
      data-testid={testId}
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} readOnly />
      ))}
      <input type="hidden" name={CARD_FIELDS.paymentMethodId} ref={pmRef} defaultValue="" />
      <input type="hidden" name={CARD_FIELDS.last4} ref={last4Ref} defaultValue="" />
      <input type="hidden" name={CARD_FIELDS.brand} ref={brandRef} defaultValue="" />
      <StripeCardField mountRef={mountRef} error={error} />
      <div className="form-actions">
        <button
          type="submit"
          className="button"
          disabled={!ready || busy}
          data-testid={submitTestId}
        >
          {children}
        </button>
      </div>
    </Form>
  );
}
