import type { MetaFunction } from "@remix-run/node";
import { pageTitle } from "~/components/title";

// Placeholder: a later issue builds this tab.
export const meta: MetaFunction = () => [{ title: pageTitle("Contact Info") }];

export default function SettingsContactInfo() {
  return (
    <div className="page-coming-soon">
      <h2>Contact Info</h2>
      <p className="lead">coming soon</p>
    </div>
  );
}
