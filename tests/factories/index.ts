/** Typed builders that insert rows through Drizzle and return them. Shared by db/seed.ts and the tests. */
export * from "./util";
export * from "./catalogue";
export * from "./retailers";
export * from "./listings";
export * from "./world";
