import {
  wizardQuery,
  type Stage,
  type WizardKind,
  type WizardState,
} from "../../domain/listing-forms";

/** Where each wizard lives (docs/product/screens.md, "List and request wizards"). */
export const WIZARD_PATHS: Record<WizardKind, string> = {
  listing: "/addlisting/",
  request: "/requestlisting/",
};

/** The URL of a stage carrying the wizard's state. */
export function wizardHref(
  kind: WizardKind,
  stage: Stage,
  state: WizardState,
  extra: Record<string, string> = {},
): string {
  return `${WIZARD_PATHS[kind]}?${wizardQuery(kind, stage, state, extra)}`;
}

/** The edit screen of an existing listing or request (built by the "my listings" screens). */
export function updateListingHref(id: number): string {
  return `/updatelisting/${id}`;
}
export function updateRequestHref(id: number): string {
  return `/updaterequest/${id}`;
}
