import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAuth } from "~/utils/auth.server";
import { canViewPhoto, readPhoto } from "~/utils/uploads.server";

/**
 * /uploads/<uuid>.<jpg|png>: a listing photo uploaded in the "List a style" wizard. Active retailers and staff
 * see photos on listings; a photo not yet on a listing only its uploader (app/utils/uploads.server.ts).
 * Anything else (signed out, pending or inactive retailers, someone else's unattached upload, unknown names)
 * is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const notFound = () =>
    new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const auth = await getAuth(request);
  if (!auth) return notFound();
  const name = params.file ?? "";
  const viewer = {
    userId: auth.user.id,
    isStaff: auth.user.isStaff,
    retailerStatus: auth.ownRetailer?.status ?? null,
  };
  if (!(await canViewPhoto(name, viewer))) return notFound();
  const photo = await readPhoto(name);
  if (!photo) return notFound();
  return new Response(new Uint8Array(photo.bytes), {
    status: 200,
    headers: {
      "Content-Type": photo.contentType,
      "Content-Length": String(photo.bytes.length),
      // Names are random and files never change; who may see them is checked above: cache privately.
      "Cache-Control": "private, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
