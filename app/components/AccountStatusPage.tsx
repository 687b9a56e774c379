/** The frame of the account-status pages (docs/product/screens.md, "Account-status pages"): title, the page's message, and a Sign out button. */
import type { ReactNode } from "react";
import { Form } from "@remix-run/react";

export function AccountStatusPage({
  testId,
  title,
  children,
}: {
  testId: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className="page auth-page" data-testid={testId}>
      <h1>{title}</h1>
      {children}
      <SignOutForm buttonClass="button button-outline" />
    </section>
  );
}

/** A Sign out button (posts to /logout) for the pages a user stays on before their store trades. */
export function SignOutForm({ buttonClass }: { buttonClass: string }) {
  return (
    <Form method="post" action="/logout">
      <button type="submit" className={buttonClass}>
        Sign out
      </button>
    </Form>
  );
}
