/** The bulk retailer upload's template (.xlsx): the header row (required columns marked "*") and an example row. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";
import { uploadTemplate } from "~/utils/retailer-upload.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  return new Response(new Uint8Array(await uploadTemplate()), {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": 'attachment; filename="retailer-upload-template.xlsx"',
    },
  });
}
