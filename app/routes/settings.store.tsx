/**
 * Settings → Store Info (docs/product/screens.md, "Settings and payout"): store_name, store_email, store_phone, business_name, address1
 * (labelled "Shipping Address"), city, state, postal_code, resale_number. The same Zod schema as the
 * retailer-setup wizard's Retailer step (domain/accounts.ts RetailerStepSchema), on both sides.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { RetailerStepSchema, storeInfoColumns, storeInfoFormValues } from "../../domain/accounts";
import { updateStoreInfo } from "../../db/queries/settings";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { readFormData, requireRetailer } from "~/utils/auth.server";
import { parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { StoreInfoFields } from "~/components/account-fields";
import { ErrorList } from "~/components/forms";

export const meta: MetaFunction = () => [{ title: pageTitle("Store Info") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { retailer: r } = await requireRetailer(request);
  return {
    store: storeInfoFormValues(r),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { retailer } = await requireRetailer(request);
  const form = await readFormData(request);
  const submission = parseSubmission(form, { schema: RetailerStepSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = submission.value;
  await updateStoreInfo(db, retailer.id, storeInfoColumns(v));
  return redirect("/settings/store?ref=storeSaved", 303);
}

export default function SettingsStoreInfo() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "settings-store",
    lastResult: navigation.state === "idle" ? actionData : null,
    defaultValue: d.store,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RetailerStepSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div>
      <h2>Store Info</h2>
      <Form method="post" {...getFormProps(form)} className="form-stack" data-testid="store-form">
        <ErrorList kind="form" errors={form.errors} />
        <StoreInfoFields fields={fields} />
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Save store info
          </button>
        </div>
      </Form>
    </div>
  );
}
