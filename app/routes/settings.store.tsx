import type { MetaFunction } from "@remix-run/node";
import { pageTitle } from "~/components/title";

// Placeholder: a later issue builds this tab.
export const meta: MetaFunction = () => [{ title: pageTitle("Store Info") }];

export default function SettingsStoreInfo() {
  return (
    <div className="page-coming-soon">
      <h2>Store Info</h2>
      <p className="lead">coming soon</p>
    </div>
  );
}
