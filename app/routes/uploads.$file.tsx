import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAuth } from "~/utils/auth.server";
import { readPhoto } from "~/utils/uploads.server";

/**
 * /uploads/<uuid>.<jpg|png>: a listing photo uploaded in the "List a style" wizard, for signed-in users
 * (the marketplace and the wizard show them). Anything else is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  if (!(await getAuth(request))) return notFound();
  const photo = await readPhoto(params.file ?? "");
  if (!photo) return notFound();
  return new Response(new Uint8Array(photo.bytes), {
    status: 200,
    headers: {
      "Content-Type": photo.contentType,
      "Content-Length": String(photo.bytes.length),
      // Names are random and files never change: cache privately.
      "Cache-Control": "private, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
