/**
 * The stock-import API's description (public/api/openapi.json, served as /api/openapi.json; docs/guides/stock-import.md "API")
 * parses, is OpenAPI 3, describes POST /api/stock-import with its bearer token and answers, and names the
 * same limits and messages the code has.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_LIMITS, STOCK_IMPORT_API_PATH } from "../../domain/api-tokens";
import { MAX_STOCK_CHOICES } from "../../domain/stock-import-choices";

const spec = JSON.parse(fs.readFileSync(path.resolve("public/api/openapi.json"), "utf8"));

/** Every "$ref" in the document, resolved: each must point at an existing component. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === "object")
    for (const [k, v] of Object.entries(node))
      k === "$ref" && typeof v === "string" ? out.push(v) : refs(v, out);
  return out;
}

describe("public/api/openapi.json", () => {
  it("is an OpenAPI 3 document with the stock import's POST and its bearer token", () => {
    expect(spec.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(spec.info.title).toBeTruthy();
    const post = spec.paths[STOCK_IMPORT_API_PATH]?.post;
    expect(post).toBeTruthy();
    expect(Object.keys(post.requestBody.content)).toEqual(
      expect.arrayContaining(["multipart/form-data", "text/csv"]),
    );
    expect(Object.keys(post.responses).sort()).toEqual(["200", "400", "401", "403", "413", "429"]);
    expect(spec.components.securitySchemes.bearerToken).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    expect(post.parameters.map((p: { name: string }) => p.name)).toEqual([
      "store",
      "confirm",
      "whole_surplus",
      "choose",
    ]);
    expect(post.requestBody.content["multipart/form-data"].schema.properties.choose.maxItems).toBe(
      MAX_STOCK_CHOICES,
    );
  });

  it("every $ref resolves, and the rate limit it states is the code's", () => {
    for (const ref of refs(spec)) {
      const target = ref
        .replace(/^#\//, "")
        .split("/")
        .reduce(
          (o: Record<string, unknown> | undefined, k) =>
            o?.[k] as Record<string, unknown> | undefined,
          spec,
        );
      expect(target, ref).toBeTruthy();
    }
    expect(spec.paths[STOCK_IMPORT_API_PATH].post.responses["429"].description).toContain(
      `${API_LIMITS.importsPerWindow} imports`,
    );
  });
});
