/** /manage-retailer/info?id=: the retailer's store columns, segments, price tier, position and status. */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { isActiveLabel, RetailerInfoSchema } from "../../domain/retailer-admin";
import { ErrorList, Field } from "~/components/forms";
import { TabNotices, type TabHandle } from "~/components/manage-retailer/parts";
import {
  infoTab,
  readTabAction,
  refuse,
  requireChosenRetailer,
  saveInfo,
} from "~/utils/manage-retailer.server";
import { StoreInfoFields } from "~/components/account-fields";

export const handle: TabHandle = { tab: "info" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { retailer } = await requireChosenRetailer(request);
  return { ...infoTab(retailer), isActive: isActiveLabel(retailer.status) };
}

export async function action({ request }: ActionFunctionArgs) {
  const c = await readTabAction(request, "info");
  if (!("form" in c)) return c;
  return c.form.get("intent") === "info" ? saveInfo(c) : refuse(400, "Unknown action.");
}

export default function InfoTab() {
  const d = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm<
    z.input<typeof RetailerInfoSchema>,
    z.output<typeof RetailerInfoSchema>
  >({
    id: "retailer-info",
    lastResult: navigation.state === "idle" ? lastResult : null,
    defaultValue: d.info,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RetailerInfoSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <TabNotices />
      <p className="muted">
        is_active {d.isActive} · created {d.created} · last active {d.lastActive} · payout{" "}
        {d.payout ? "set up" : "not set up"}
      </p>
      <Form method="post" {...getFormProps(form)} className="form-stack" data-testid="info-form">
        <input type="hidden" name="intent" value="info" />
        <ErrorList kind="form" errors={form.errors} />
        <StoreInfoFields fields={fields} />
        <div className="form-row">
          <Field
            label="Segments"
            htmlFor={fields.segments.id}
            errors={fields.segments.errors}
            hint="Separated by ; or ,"
          >
            <input
              id={fields.segments.id}
              name={fields.segments.name}
              defaultValue={d.info.segments}
            />
          </Field>
          <Field
            label="Price tier"
            htmlFor={fields.price_tier.id}
            errors={fields.price_tier.errors}
          >
            <input
              id={fields.price_tier.id}
              name={fields.price_tier.name}
              defaultValue={d.info.price_tier}
            />
          </Field>
        </div>
        <div className="form-row">
          <Field label="Latitude" htmlFor={fields.latitude.id} errors={fields.latitude.errors}>
            <input
              id={fields.latitude.id}
              name={fields.latitude.name}
              defaultValue={d.info.latitude}
              inputMode="decimal"
            />
          </Field>
          <Field label="Longitude" htmlFor={fields.longitude.id} errors={fields.longitude.errors}>
            <input
              id={fields.longitude.id}
              name={fields.longitude.name}
              defaultValue={d.info.longitude}
              inputMode="decimal"
            />
          </Field>
        </div>
        <Field label="Status" htmlFor={fields.status.id} errors={fields.status.errors}>
          <select id={fields.status.id} name={fields.status.name} defaultValue={d.info.status}>
            <option value="pending">pending (is_active none)</option>
            <option value="active">active</option>
            <option value="inactive">inactive</option>
            <option value="denied">denied</option>
          </select>
        </Field>
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Save retailer
          </button>
        </div>
      </Form>
    </>
  );
}
