/** A server field error under its field (spec: "server field errors are shown under their fields"). */
export function FieldError({ name, errors, testId }: { name: string; errors: Record<string, string>; testId?: string }) {
  const message = errors[name];
  return message ? (
    <div className="field-error" role="alert" data-field-error={name} data-testid={testId}>
      {message}
    </div>
  ) : null;
}
