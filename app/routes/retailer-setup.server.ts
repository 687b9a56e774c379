/**
 * The retailer setup wizard's server half (docs/product/screens.md, "Staff: retailer setup and bulk upload"):
 * whose setup it is and where it resumes, the page's data, and the action with one function per step (user,
 * retailer, contact, brands). Tampered or stale input is answered with a 4xx (a Conform reply), never a
 * redirect that hides it.
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import {
  BrandsStepSchema,
  contactColumns,
  ContactStepSchema,
  MSG,
  RegisterSchema,
  RetailerStepSchema,
  SETUP_WIZARD_STEPS as ORDER,
  setupStepFor,
  storeInfoColumns,
  storeInfoFormValues,
  type SetupWizardStep,
} from "../../domain/accounts";
import { MAX_ROW_ID } from "../../domain/ids";
import {
  getBrandsByIds,
  getContact,
  getRetailer,
  listBrandChoices,
  saveBrandsStep,
  saveContactStep,
  saveRetailerStep,
  type RetailerRow,
} from "../../db/queries/retailers";
import { createUser, findUserById, type UserRow } from "../../db/queries/users";
import { requireUser, type AuthContext } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";
import { hashPassword } from "~/utils/password.server";

/** Whose setup this is: the signed-in retailer's, or for staff the user chosen with ?user=. */
async function resolveTarget(auth: AuthContext, userParam: string | null): Promise<UserRow | null> {
  if (!auth.user.isStaff) return findUserById(db, auth.user.id);
  if (!userParam || !/^\d{1,9}$/.test(userParam)) return null;
  const u = await findUserById(db, Number(userParam));
  if (!u || u.isStaff) throw redirect("/retailer-setup/");
  return u;
}

/** The target's retailer and contact and the step the wizard is at; a finished or decided setup redirects. */
async function wizardState(auth: AuthContext, userParam: string | null) {
  const target = await resolveTarget(auth, userParam);
  if (!target)
    return { target: null, retailer: null, contact: null, current: "user" as SetupWizardStep };
  const retailer = target.retailerId !== null ? await getRetailer(db, target.retailerId) : null;
  const contact = retailer ? await getContact(db, retailer.id, target.id) : null;
  const step = setupStepFor({
    hasRetailer: !!retailer,
    hasContact: !!contact,
    setupComplete: !!retailer?.setupCompletedAt,
  });
  if (step === "done" || (retailer && retailer.status !== "pending")) {
    if (auth.user.isStaff) throw redirect("/admin/retailers");
    throw redirect(
      retailer?.status === "denied"
        ? "/retailer-denied/"
        : retailer?.status === "pending"
          ? "/wait-for-activation/"
          : "/",
    );
  }
  return { target, retailer, contact, current: step as SetupWizardStep };
}

export async function setupPageData(request: Request) {
  const auth = await requireUser(request);
  const url = new URL(request.url);
  const { target, retailer, contact, current } = await wizardState(
    auth,
    url.searchParams.get("user"),
  );
  // ?step= lets the user go back to an earlier step; never forward past the current one.
  const asked = url.searchParams.get("step") as SetupWizardStep | null;
  const step: SetupWizardStep =
    asked &&
    ORDER.includes(asked) &&
    ORDER.indexOf(asked) <= ORDER.indexOf(current) &&
    asked !== "user"
      ? asked
      : current;
  const brands = step === "brands" ? await listBrandChoices(db) : [];
  return {
    isStaff: auth.user.isStaff,
    step,
    current,
    targetUser: target ? { id: target.id, email: target.email } : null,
    retailer: retailer ? storeInfoFormValues(retailer) : null,
    contact: contact
      ? {
          first_name: contact.firstName,
          last_name: contact.lastName,
          job_title: contact.jobTitle,
          job_title_other: contact.jobTitleOther,
          phone: contact.phone,
          celphone: contact.celphone,
        }
      : null,
    brands: brands.map((b) => ({ id: b.id, name: b.displayName || b.name })),
  };
}

const refuse = (message: string, status: number) => data(formError(message), { status });

/** What every step's form carries: the step, and for staff the user being set up (else the URL's ?user=). */
const SetupStepSchema = z.object({
  step: z.enum(ORDER, { errorMap: () => ({ message: "Unknown setup step." }) }),
  user: z.string().optional(),
});

/** The step the form names, checked against who sends it and how far the wizard is; then the step's function. */
export async function setupAction(request: Request) {
  const auth = await requireUser(request);
  const formData = await readFormData(request);
  const head = parseSubmission(formData, { schema: SetupStepSchema });
  if (head.status !== "success") {
    // A form-wide refusal of the reading itself (a NUL in a field: app/utils/form.server.ts), with its message.
    if (head.error?.[""]) return data(head.reply(), { status: 400 });
    // Only a repeated user field gets past the step and fails here: no user of that name.
    return head.error?.step
      ? refuse("Unknown setup step.", 400)
      : refuse("That user does not exist.", 404);
  }
  const { step } = head.value;
  const userParam = head.value.user || new URL(request.url).searchParams.get("user");
  if (step === "user" && !auth.user.isStaff)
    return refuse("Only staff create logins for retailers.", 403);
  if (auth.user.isStaff && userParam) {
    const u = /^\d{1,9}$/.test(userParam) ? await findUserById(db, Number(userParam)) : null;
    if (!u || u.isStaff) return refuse("That user does not exist.", 404);
  }
  const { target, retailer, current } = await wizardState(auth, userParam);
  if (step === "user") return createLogin(formData);
  if (!target) throw redirect("/retailer-setup/");
  // The wizard's next page (staff keep the user they set up in the URL).
  const next = `/retailer-setup/${auth.user.isStaff ? `?user=${target.id}` : ""}`;
  if (ORDER.indexOf(step) > ORDER.indexOf(current)) throw redirect(next);
  if (step === "retailer") return saveRetailer(formData, target, next);
  if (!retailer) throw redirect(next);
  if (step === "contact") return saveContact(formData, retailer, target, next);
  return saveBrands(formData, retailer, auth.user.isStaff);
}

/** User (staff only): the retailer's login, then the wizard goes on for that user. */
async function createLogin(formData: FormData) {
  const submission = parseSubmission(formData, { schema: RegisterSchema });
  if (submission.status !== "success")
    return data(submission.reply({ hideFields: ["password", "confirm"] }), { status: 400 });
  const created = await createUser(db, {
    email: submission.value.email,
    passwordHash: await hashPassword(submission.value.password),
  });
  if (!created.ok) {
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
  return redirect(`/retailer-setup/?user=${created.user.id}`);
}

/** Retailer: the store (creates the retailer the first time). */
async function saveRetailer(formData: FormData, target: UserRow, next: string) {
  const submission = parseSubmission(formData, { schema: RetailerStepSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await saveRetailerStep(db, target.id, storeInfoColumns(submission.value));
  return redirect(next);
}

/** Retailer Contact: the target user as the retailer's contact. */
async function saveContact(
  formData: FormData,
  retailer: RetailerRow,
  target: UserRow,
  next: string,
) {
  const submission = parseSubmission(formData, { schema: ContactStepSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await saveContactStep(
    db,
    retailer.id,
    { id: target.id, email: target.email },
    contactColumns(submission.value),
  );
  return redirect(next);
}

/** Request Brands: brands of the marketplace and typed brand requests (at least one); the setup is finished. */
async function saveBrands(formData: FormData, retailer: RetailerRow, isStaff: boolean) {
  const submission = parseSubmission(formData, { schema: BrandsStepSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // Ids that cannot exist are ignored like ids that do not exist (then "choose at least one brand").
  const chosen = await getBrandsByIds(
    db,
    [...new Set(submission.value.brand_ids ?? [])].filter((id) => id <= MAX_ROW_ID),
  );
  const typed = (submission.value.requests ?? []).filter((r) => !!r.brand_name);
  if (chosen.length === 0 && typed.length === 0) {
    return data(submission.reply({ fieldErrors: { brand_ids: [MSG.brandsRequired] } }), {
      status: 400,
    });
  }
  await saveBrandsStep(db, retailer.id, [
    ...chosen.map((b) => ({ brandName: b.displayName || b.name, brandId: b.id })),
    ...typed.map((r) => ({
      brandName: r.brand_name!,
      brandPurchaseAmountCents: r.brand_purchase_amount,
      yourInterestInThisBrand: r.your_interest_in_this_brand ?? [],
      brandContactEmail: r.brand_contact_email ?? "",
      brandContactName: r.brand_contact_name ?? "",
    })),
  ]);
  throw redirect(isStaff ? "/admin/retailers" : "/wait-for-activation/");
}
