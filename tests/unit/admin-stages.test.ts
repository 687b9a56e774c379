import { describe, expect, test } from "vitest";
import { partyLabels, stagesOfAdminStage } from "../../domain/states";

describe("stagesOfAdminStage", () => {
  test.each([
    ["pre_shipping", ["pre_shipping", "rmarequested"]],
    ["approved", ["approved"]],
    ["shipping", ["shipping"]],
    ["delivered", ["delivered"]],
    ["complete", ["complete", "rmacompleted"]],
    ["declined", ["declined", "rmadeclined"]],
    ["cancelled", ["cancelled", "rmacancelled"]],
  ] as const)("%s -> %j", (stage, stages) => {
    expect(stagesOfAdminStage(stage)).toEqual(stages);
  });
});

describe("partyLabels", () => {
  test.each([
    [1, "seller", "buyer"],
    [2, "provider", "receiver"],
    // docs/product/glossary.md, "Parties": the RMA's provider is the victim (refunded), its receiver the perpetrator (charged).
    [3, "victim", "perpetrator"],
  ] as const)("type %i: %s -> %s", (type, provider, receiver) => {
    expect(partyLabels(type)).toEqual({ provider, receiver });
  });
});
