/** Small form pieces shared by the account pages (not a route: "__" files are ignored by remix.config.js). */
import type { ReactNode } from "react";

export function FieldError({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} className="field-error" role="alert">
      {errors[0]}
    </div>
  );
}

export function FormErrors({ errors, children }: { errors?: string[] | null; children?: ReactNode }) {
  if ((!errors || errors.length === 0) && !children) return null;
  return (
    <div className="alert alert-danger" role="alert" data-testid="form-error">
      {errors?.map((e) => (
        <p key={e}>{e}</p>
      ))}
      {children}
    </div>
  );
}

export function Field({
  label,
  htmlFor,
  errors,
  errorId,
  hint,
  children,
}: {
  label: string;
  htmlFor: string;
  errors?: string[] | null;
  errorId?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`field${errors && errors.length ? " field-invalid" : ""}`}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {hint ? <div className="field-hint muted">{hint}</div> : null}
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}

/** The client address Express put in the load context (empty when unknown). */
export function clientIp(context: unknown): string {
  const ip = (context as { clientIp?: unknown } | undefined)?.clientIp;
  return typeof ip === "string" ? ip : "";
}
