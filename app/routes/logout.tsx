import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { destroySession } from "~/utils/auth.server";

/** Logging out is a POST (the Origin check guards it); it ends the session and returns to the root. */
export async function action({ request }: ActionFunctionArgs) {
  const setCookie = await destroySession(request);
  return redirect("/", { headers: { "Set-Cookie": setCookie } });
}

export function loader() {
  return redirect("/");
}
