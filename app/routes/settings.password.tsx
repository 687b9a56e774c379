import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { pageTitle } from "~/components/title";

export const meta: MetaFunction = () => [{ title: pageTitle("Password") }];

export default function SettingsPassword() {
  return (
    <div>
      <h2>Password</h2>
      <p>To change your password, we e-mail you a link that lets you choose a new one.</p>
      <p>
        <Link to="/password-reset" className="button">
          Reset my password
        </Link>
      </p>
    </div>
  );
}
