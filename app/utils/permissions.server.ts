/**
 * The permissions map of staff (ADR 0020; docs/product/glossary.md, "Roles and permissions"): a staff user carries the resource names
 * (domain/resources RESOURCE_NAMES) it may manage, in users.admin_permissions. The hub lists only those and
 * every loader and action of a resource screen checks here first, so a staff user without the permission is
 * refused by the server (403, nothing read or saved), not only hidden from the menu. Non-staff go to /error/
 * as on every admin path; an unknown class_name is a 404.
 *
 *   const { auth, resource } = await requireResource(request, params.class_name);   // generic screens
 *   const auth = await requirePermission(request, "brand");                          // a named screen
 */
import {
  getResource,
  isResourceName,
  RESOURCE_NAMES,
  type ResourceDef,
  type ResourceName,
} from "../../domain/resources";
import {
  permissionLabel,
  PERMISSION_NAMES,
  STAFF_MSG,
  STAFF_USERS_PERMISSION,
} from "../../domain/staff-users";
import { getAdminPermissions } from "../../db/queries/staff-permissions";
import { requireStaff, type AuthContext } from "./auth.server";
import { db } from "./db.server";

/**
 * `staffAdmin`: the map's own right to the staff-users screens (domain/staff-users STAFF_USERS_PERMISSION);
 * `rights`: the map's other entries that are no resource (domain/staff-users PERMISSION_NAMES).
 */
export type StaffContext = AuthContext & {
  permissions: ResourceName[];
  staffAdmin: boolean;
  rights: string[];
};

const memo = new WeakMap<Request, Promise<StaffContext>>();

/** Staff (else a redirect to /error/) with their permissions map (only known resource names). */
export function requireStaffPermissions(request: Request): Promise<StaffContext> {
  let p = memo.get(request);
  if (!p) {
    p = (async () => {
      const auth = await requireStaff(request);
      const granted = new Set(await getAdminPermissions(db, auth.user.id));
      return {
        ...auth,
        permissions: RESOURCE_NAMES.filter((n) => granted.has(n)),
        staffAdmin: granted.has(STAFF_USERS_PERMISSION),
        rights: PERMISSION_NAMES.filter(
          (n) => granted.has(n) && !(RESOURCE_NAMES as readonly string[]).includes(n),
        ),
      };
    })();
    memo.set(request, p);
  }
  return p;
}

export function mayManage(ctx: { permissions: readonly string[] }, name: string): boolean {
  return ctx.permissions.includes(name);
}

export function forbidden(plural: string): Response {
  return new Response(`You may not manage ${plural.toLowerCase()}.`, {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

export function notFound(): Response {
  return new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** Staff with the permission for `name` (a ResourceName), else /error/ (not staff) or a 403. */
export async function requirePermission(
  request: Request,
  name: ResourceName,
): Promise<StaffContext> {
  const ctx = await requireStaffPermissions(request);
  if (!mayManage(ctx, name)) throw forbidden(getResource(name)!.plural);
  return ctx;
}

/** Staff holding the staff-users right (docs/product/screens.md, "Staff users"), else /error/ or a 403. */
export async function requireStaffAdmin(request: Request): Promise<StaffContext> {
  const ctx = await requireStaffPermissions(request);
  if (!ctx.staffAdmin) {
    throw new Response(STAFF_MSG.forbidden, {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return ctx;
}

/** Staff holding `right`, one of the map's entries that is no resource (else /error/ or a 403). */
export async function requireStaffRight(request: Request, right: string): Promise<StaffContext> {
  const ctx = await requireStaffPermissions(request);
  if (!ctx.rights.includes(right)) throw forbidden(permissionLabel(right));
  return ctx;
}

/** The generic screens' guard: the class_name of the URL must be a resource this staff user may manage. */
export async function requireResource(
  request: Request,
  className: string | undefined,
): Promise<StaffContext & { resource: ResourceDef; name: ResourceName }> {
  const ctx = await requireStaffPermissions(request);
  const name = className ?? "";
  if (!isResourceName(name)) throw notFound();
  const resource = getResource(name)!;
  if (!mayManage(ctx, name)) throw forbidden(resource.plural);
  return { ...ctx, resource, name };
}
