export * from "./_types";
export * from "./accounts";
export * from "./catalogue";
export * from "./retailers";
export * from "./marketplace";
export * from "./orders";
export * from "./system";
export * from "./admin";
