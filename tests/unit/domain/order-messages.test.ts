import { describe, expect, it } from "vitest";
import {
  checkMessage,
  MESSAGE_EMPTY,
  MESSAGE_MAX_LENGTH,
  MESSAGE_REFUSALS,
  MESSAGE_TOO_LONG,
  messageRefusal,
  type MessageRefusal,
} from "../../../domain/order-messages";

const OWN = ["Blue Ridge Outpost", "Dana Whitfield", "Al Li", "118 Canyon Loop Rd"];

const REFUSED: [string, MessageRefusal][] = [
  // e-mail addresses, plain and disguised
  ["write to dana@blueridge.com please", "email"],
  ["dana at blueridge dot com", "email"],
  ["dana (at) blueridge (dot) com", "email"],
  ["dana [at] blueridge [dot] com", "email"],
  ["dana @ blueridge . com", "email"],
  ["DANA AT BLUERIDGE DOT COM", "email"],
  ["reach me: dana.w at gmail", "email"],
  ["ｄａｎａ＠ｂｌｕｅｒｉｄｇｅ．ｃｏｍ", "email"],
  // phone numbers: plain, spaced, dashed, dotted, bracketed, as words, mixed
  ["call 5551234567", "phone"],
  ["call 5 5 5 1 2 3 4 5 6 7", "phone"],
  ["call 555-123-4567 after 5", "phone"],
  ["call 555.123.4567", "phone"],
  ["(555) 123 4567", "phone"],
  ["+1 555 123 4567", "phone"],
  ["5-5-5-1-2-3-4-5-6-7", "phone"],
  ["five five five one two three four five six seven", "phone"],
  ["five 5 five one 2 three 4 five six 7", "phone"],
  ["text me at 555 1234", "phone"],
  // web addresses
  ["see https://example.org/shop", "url"],
  ["www.blueridge-outpost.net has it", "url"],
  ["our site blueridgeoutpost dot com", "url"],
  ["blueridgeoutpost.shop", "url"],
  // the sender's own names, in any case and spelling
  ["This is Blue Ridge Outpost speaking", "name"],
  ["from b-l-u-e r-i-d-g-e outpost", "name"],
  ["BLUERIDGEOUTPOST here", "name"],
  ["ask for dana whitfield", "name"],
  ["Dana-Whitfield", "name"],
  ["regards, al li", "name"],
  ["come to 118 canyon loop rd", "name"],
];

const ALLOWED = [
  "Can you ship by Friday? We need 12 pairs in sizes 8, 9 and 10.",
  "I'll be at the store around 5; the box is at the back door.",
  "Price is $1,234.56 for the lot, order 4512.",
  "The 8.5 and 9.5 are out of stock. Thanks. Co-op rules apply.",
  "Really sorry, the parcel is totally late: finally shipped today.",
  "We are at home. Net price stays the same.",
  "one or two boxes, three at most",
  "Look at mail time tomorrow",
  "Sizes 6 7 8 9 10 11 12 are in the box, also 8 8.5 9 9.5 10 10.5 11.",
  "About orders WX-000123 and WX-000124, and RMA-000045.",
  "Blue boxes are fine; the ridge pattern too.",
];

describe("messageRefusal", () => {
  it.each(REFUSED)("refuses %j (%s)", (text, why) => {
    expect(messageRefusal(text, OWN)).toBe(why);
  });
  it.each(ALLOWED)("lets %j through", (text) => {
    expect(messageRefusal(text, OWN)).toBeNull();
  });
  it("reads names only of the sender: another store's name passes", () => {
    expect(messageRefusal("Blue Ridge Outpost", ["Mesa Trail Supply"])).toBeNull();
    expect(messageRefusal("mesa trail supply", ["Mesa Trail Supply"])).toBe("name");
  });
});

describe("checkMessage", () => {
  it("says why, or null", () => {
    expect(checkMessage("   ")).toBe(MESSAGE_EMPTY);
    expect(checkMessage("x".repeat(MESSAGE_MAX_LENGTH + 1))).toBe(MESSAGE_TOO_LONG);
    expect(checkMessage("x".repeat(MESSAGE_MAX_LENGTH))).toBeNull();
    expect(checkMessage("call 555 123 4567")).toBe(MESSAGE_REFUSALS.phone);
    expect(MESSAGE_REFUSALS.phone).toMatch(/phone number/);
    expect(checkMessage("hello, ready Monday")).toBeNull();
  });
});
