/**
 * domain/: the one home of business rules. Pure TypeScript: no I/O, no Node built-ins, no clock
 * (time is passed in), imports nothing but zod and other domain files. Workflows, activities and pages
 * all import it (see docs/architecture.md).
 */
export * from "./money";
export * from "./fees";
export * from "./shipping";
export * from "./business-days";
export * from "./states";
export * from "./action-codes";
export * from "./reasons";
export * from "./anonymity";
export * from "./messages";
export * from "./accounts";
export * from "./payout";
