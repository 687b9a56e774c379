/** /admin/active-transactions/:stage: the same screen with a stage chosen (app/routes/admin.active-transactions.tsx). */
export { action, default, links, loader, meta } from "./admin.active-transactions";
