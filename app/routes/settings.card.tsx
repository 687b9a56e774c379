import type { MetaFunction } from "@remix-run/node";
import { pageTitle } from "~/components/title";

// Placeholder: a later issue builds this tab.
export const meta: MetaFunction = () => [{ title: pageTitle("Card On File") }];

export default function SettingsCardOnFile() {
  return (
    <div className="page-coming-soon">
      <h2>Card On File</h2>
      <p className="lead">coming soon</p>
    </div>
  );
}
