/** Staff resources described once (ADR 0020): field metadata, field rendering rules, Zod schemas. */
export * from "./fields";
export * from "./definitions";
export * from "./variation-editor";
