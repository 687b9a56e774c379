import { useEffect, useRef, useState } from "react";

/** The part of Stripe.js (loaded from Stripe, only when Stripe keys are configured) that our card forms use. */
export type StripeJs = {
  elements(): { create(type: "card", opts?: object): { mount(el: HTMLElement): void; destroy(): void } };
  createPaymentMethod(opts: { type: "card"; card: unknown }): Promise<{
    paymentMethod?: { id: string; card?: { last4?: string; brand?: string } };
    error?: { message?: string };
  }>;
};

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
    if (w.Stripe) init();
    else {
      const s = document.createElement("script");
      s.src = "https://js.stripe.com/v3/";
      s.async = true;
      s.onload = init;
      s.onerror = () => setError("The card form could not be loaded. Please try again.");
      document.head.appendChild(s);
    }
    return () => {
      cancelled = true;
      card?.destroy();
    };
  }, [publishableKey]);

  return { mountRef, stripeRef, error, setError, ready };
}

/** The card field Stripe Elements mounts into, with the hook's error under it (both Elements card forms). */
export function StripeCardField({ mountRef, error }: { mountRef: React.RefObject<HTMLDivElement>; error: string | null }) {
  return (
    <>
      <div className="field">
        <label>Card</label>
        <div ref={mountRef} className="stripe-card-element" style={{ padding: "0.6rem", border: "1px solid #ccc", borderRadius: 6 }} />
      </div>
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
      <noscript>The card form needs JavaScript (Stripe Elements).</noscript>
    </>
  );
}
