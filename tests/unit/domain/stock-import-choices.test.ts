/**
 * A stock file's guesses confirmed (domain/stock-import-choices.ts; ADR 0029): the page's code[i]/pick[i] and
 * the API's choose=CODE:variationId become the same choices, and a choice is accepted only for a row waiting for
 * one and only as one of that row's guesses.
 */
import { describe, expect, it } from "vitest";
import {
  CHOICE_MSG,
  choiceProblems,
  choicesFromPairs,
  choicesFromPicks,
  MAX_STOCK_CHOICES,
} from "../../../domain/stock-import-choices";

const rows = [
  { lines: [2, 3], code: "ABC1", action: "create" },
  {
    lines: [4],
    code: "SA1",
    action: "choose",
    guesses: [{ variationId: 11 }, { variationId: 12 }],
  },
  { lines: [6, 8], code: "X:Y", action: "choose", guesses: [{ variationId: 30 }] },
];

describe("choicesFromPicks (the page's form)", () => {
  it("keeps a variation id per code, upper-cased; an empty pick is no choice", () => {
    expect(choicesFromPicks(["sa1", "x:y", "ZZ"], ["12", "", undefined])).toEqual({ SA1: 12 });
    expect(choicesFromPicks(["sa1"], ["12x"])).toEqual({});
  });
});

describe("choicesFromPairs (the API's choose)", () => {
  it("reads CODE:variationId, the last colon splitting; the same pair twice is one choice", () => {
    expect(choicesFromPairs(["sa1:12", " X:Y:30 ", "SA1:12"])).toEqual({
      ok: true,
      choices: { SA1: 12, "X:Y": 30 },
    });
    expect(choicesFromPairs([])).toEqual({ ok: true, choices: {} });
  });

  it("refuses a malformed pair, a code chosen twice differently, and too many", () => {
    expect(choicesFromPairs(["SA1", ":12", "SA1:", "SA1:0", "SA1:abc"])).toEqual({
      ok: false,
      problems: ["SA1", ":12", "SA1:", "SA1:0", "SA1:abc"].map(CHOICE_MSG.malformed),
    });
    expect(choicesFromPairs(["SA1:11", "sa1:12"])).toEqual({
      ok: false,
      problems: [CHOICE_MSG.twice("SA1")],
    });
    expect(
      choicesFromPairs(Array.from({ length: MAX_STOCK_CHOICES + 1 }, (_, i) => `C${i}:1`)),
    ).toEqual({
      ok: false,
      problems: [CHOICE_MSG.tooMany],
    });
  });
});

describe("choiceProblems (both)", () => {
  it("accepts one of the row's guesses", () => {
    expect(choiceProblems(rows, { SA1: 12, "X:Y": 30 })).toEqual([]);
  });

  it("refuses a variation not among the row's guesses, and a code whose row waits for no choice, one message each", () => {
    expect(choiceProblems(rows, { SA1: 30, "X:Y": 11, ABC1: 5, NOPE: 1 })).toEqual([
      "Line 4 (SA1): 30 is not one of the guesses offered. Choose 11 or 12, or send no choice to skip this line.",
      "Lines 6, 8 (X:Y): 11 is not one of the guesses offered. Choose 30, or send no choice to skip these lines.",
      CHOICE_MSG.noRow("ABC1"),
      CHOICE_MSG.noRow("NOPE"),
    ]);
  });
});
