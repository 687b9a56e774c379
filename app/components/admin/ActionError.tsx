import { useForm, type SubmissionResult } from "@conform-to/react";
import { ErrorList } from "~/components/forms";

/**
 * The form-level error of an action's answer (a Conform reply) in a red alert, for the staff screens whose
 * small forms (one button, one select) show what the action refused above them. `lastResult` is the
 * current answer (useActionData); after a redirect there is none and the alert is gone, as the page was.
 */
export function ActionError({
  id,
  lastResult,
  testId,
}: {
  id: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  testId?: string;
}) {
  const [form] = useForm({ id, lastResult });
  return lastResult ? <ErrorList kind="form" errors={form.errors} testId={testId} /> : null;
}
