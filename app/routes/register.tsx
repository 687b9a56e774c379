import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { MSG, PASSWORD_MIN, RegisterSchema } from "../../domain/accounts";
import { createUser } from "../../db/queries/users";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { commitSession, getAuth, readFormData } from "~/utils/auth.server";
import { parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { getEnv } from "~/utils/env.server";
import {
  admitAccountRequest,
  clientIp,
  retryAfterHeaders,
  throttleConfig,
} from "~/utils/throttle.server";
import { ErrorList, Field } from "~/components/forms";

export const meta: MetaFunction = () => [{ title: pageTitle("Register my store") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];
/** Pass the throttle's Retry-After through to the document response. */
export const headers = retryAfterHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await getAuth(request);
  if (auth) throw redirect(auth.user.isStaff ? "/retailer-setup/" : "/");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request);
  const submission = parseSubmission(formData, { schema: RegisterSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password", "confirm"] }), { status: 400 });
  }
  const verdict = await admitAccountRequest(db, throttleConfig(getEnv()), "register", {
    email: submission.value.email,
    ip: clientIp(context),
  });
  if (verdict.limited) {
    return data(
      submission.reply({ hideFields: ["password", "confirm"], formErrors: [verdict.message] }),
      {
        status: 429,
        headers: { "Retry-After": String(verdict.retryAfterSeconds) },
      },
    );
  }
  const created = await createUser(db, {
    email: submission.value.email,
    passwordHash: await hashPassword(submission.value.password),
  });
  if (!created.ok) {
    // Registration may say that an address is already registered (docs/product/glossary.md, "Anonymity").
    return data(
      submission.reply({
        hideFields: ["password", "confirm"],
        fieldErrors: { email: [MSG.alreadyRegistered] },
      }),
      {
        status: 409,
      },
    );
  }
  const setCookie = await commitSession(created.user.id);
  return redirect("/retailer-setup/", { headers: { "Set-Cookie": setCookie } });
}

export default function Register() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "register",
    lastResult: navigation.state === "idle" ? lastResult : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
    shouldValidate: "onInput",
    shouldRevalidate: "onInput",
  });
  // CONTINUE stays disabled while any error exists or the confirmation is empty.
  // Before hydration the button works and the server validates.
  const formRef = useRef<HTMLFormElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [valid, setValid] = useState(false);
  const recheck = () => {
    if (!formRef.current) return;
    const fd = new FormData(formRef.current);
    setValid(parseWithZod(fd, { schema: RegisterSchema }).status === "success");
  };
  useEffect(() => {
    setHydrated(true);
    recheck();
  }, []);
  return (
    <section className="page auth-page">
      <h1>Register my store</h1>
      <p className="lead">
        Create your login first; then tell us about your store and the brands you carry.
      </p>
      <Form
        method="post"
        {...getFormProps(form)}
        ref={formRef}
        onInput={recheck}
        onChange={recheck}
        className="form-stack"
      >
        <ErrorList kind="form" errors={form.errors} />
        <Field
          label="Email"
          htmlFor={fields.email.id}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        >
          <input
            {...getInputProps(fields.email, { type: "email" })}
            autoComplete="email"
            autoFocus
          />
        </Field>
        <Field
          label="Password"
          htmlFor={fields.password.id}
          errors={fields.password.errors}
          errorId={fields.password.errorId}
          hint={`At least ${PASSWORD_MIN} characters.`}
        >
          <input
            {...getInputProps(fields.password, { type: "password" })}
            autoComplete="new-password"
          />
        </Field>
        <Field
          label="Confirm password"
          htmlFor={fields.confirm.id}
          errors={fields.confirm.errors}
          errorId={fields.confirm.errorId}
        >
          <input
            {...getInputProps(fields.confirm, { type: "password" })}
            autoComplete="new-password"
          />
        </Field>
        <div className="form-actions">
          <button
            type="submit"
            className="button"
            disabled={(hydrated && !valid) || navigation.state === "submitting"}
          >
            CONTINUE
          </button>
          <Link to="/signin">I already have an account</Link>
        </div>
      </Form>
    </section>
  );
}
