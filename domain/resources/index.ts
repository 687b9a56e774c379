/** Staff resources described once (issue 12): field metadata, §5 rendering rules, Zod schemas. */
export * from "./fields";
export * from "./definitions";
export * from "./variation-editor";
