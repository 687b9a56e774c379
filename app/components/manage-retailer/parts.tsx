/**
 * The retailer admin's shared pieces (/manage-retailer and its tabs): the tabs, the notices above a tab (what
 * its action refused, what was just saved), and the modal opened by URL (works without JavaScript).
 */
import type { SubmissionResult } from "@conform-to/react";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { ActionError } from "~/components/admin/ActionError";

export const TABS = [
  "choose",
  "info",
  "contacts",
  "brands",
  "listings",
  "requests",
  "transactions",
  "rmas",
  "statements",
  "imports",
] as const;
export type Tab = (typeof TABS)[number];
export const TAB_LABELS: Record<Tab, string> = {
  choose: "Choose Retailer",
  info: "Info",
  contacts: "Contacts",
  brands: "Brands",
  listings: "Listings",
  requests: "Requests",
  transactions: "Transactions",
  rmas: "RMAs",
  statements: "Statements",
  imports: "Stock imports",
};

/** What a tab route says it is (its `handle`), for the layout's tab links. */
export type TabHandle = { tab: Tab };

const DONE: Record<string, string> = {
  info: "Retailer saved.",
  contact: "Contact saved.",
  reset: "A password reset e-mail is on its way to the contact.",
  "brand-add": "Brand added.",
  "brand-delete": "Brand link deleted.",
  "listing-updated": "Listing saved.",
  "listing-deleted": "Listing deleted.",
  "request-updated": "Request saved.",
  "request-deleted": "Request deleted.",
};

/** Above a tab: its action's refusal (a Conform reply), then what the last save did (?done=). */
export function TabNotices() {
  const lastResult = useActionData() as SubmissionResult<string[]> | undefined;
  const [params] = useSearchParams();
  const done = params.get("done");
  return (
    <>
      <ActionError id="manage-retailer-action" lastResult={lastResult} />
      {done && DONE[done] ? (
        <p className="alert alert-success" role="status">
          {DONE[done]}
        </p>
      ) : null}
    </>
  );
}

/** A modal opened by URL (works without JavaScript): a dialog over a backdrop. */
export function Modal({
  testId,
  title,
  children,
}: {
  testId: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="modal-backdrop">
      <dialog open className="modal" aria-labelledby={`${testId}-title`} data-testid={testId}>
        <h2 id={`${testId}-title`}>{title}</h2>
        {children}
      </dialog>
    </div>
  );
}

export function SaveCancel({
  label,
  back,
  disabled,
}: {
  label: string;
  back: string;
  disabled?: boolean;
}) {
  return (
    <div className="form-actions">
      <button type="submit" className="button" disabled={disabled}>
        {label}
      </button>
      <Link to={back} className="button button-outline">
        Cancel
      </Link>
    </div>
  );
}
