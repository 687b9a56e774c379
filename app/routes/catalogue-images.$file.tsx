import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAuth } from "~/utils/auth.server";
import { readCatalogueImage } from "~/utils/catalogue-images.server";

/** /catalogue-images/<uuid>.<jpg|png>: a variation picture staff uploaded; anyone signed in sees it. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const notFound = () =>
    new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  if (!(await getAuth(request))) return notFound();
  const image = await readCatalogueImage(params.file ?? "");
  if (!image) return notFound();
  return new Response(new Uint8Array(image.bytes), {
    headers: {
      "Content-Type": image.contentType,
      "Content-Length": String(image.bytes.length),
      "Cache-Control": "private, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
