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
  // phone numbers with any separator, as a person would try: commas, slashes, dots, brackets, line breaks, mixed
  ["call 555, 123, 4567", "phone"],
  ["call 555,123,4567", "phone"],
  ["call five five five, one two three, four five six seven", "phone"],
  ["five-five-five, one-two-three, four-five-six-seven", "phone"],
  ["Five-Five-Five / One-Two-Three / Four-Five-Six-Seven", "phone"],
  ["555/123/4567", "phone"],
  ["555 / 123 / 4567", "phone"],
  ["[555] 123-4567", "phone"],
  ["{555}{123}{4567}", "phone"],
  ["555\n123\n4567", "phone"],
  ["call\n555,\n123,\n4567", "phone"],
  ["555 • 123 • 4567", "phone"],
  ["555 | 123 | 4567", "phone"],
  ["555_123_4567", "phone"],
  ["555 . 123 . 4567", "phone"],
  ["(555)-123/4567", "phone"],
  ["5,5,5,1,2,3,4,5,6,7", "phone"],
  ["5; 5; 5; 1; 2; 3; 4; 5; 6; 7", "phone"],
  ["1 (555) 123-4567", "phone"],
  ["+1-555-123-4567", "phone"],
  ["555 - 123 - 4567", "phone"],
  ["five five five one two three four five six oh", "phone"],
  ["555 123 45 67", "phone"],
  ["55 51 23 45 67", "phone"],
  ["555, 1234", "phone"],
  ["５５５、１２３、４５６７", "phone"],
  // social handles of the usual networks
  ["ig: @storehandle", "handle"],
  ["ig: storehandle", "handle"],
  ["IG @storehandle", "handle"],
  ["follow us @storehandle", "handle"],
  ["find us on instagram @blueridge_nyc", "handle"],
  ["insta: storehandle", "handle"],
  ["instagram -> storehandle", "handle"],
  ["my insta is storehandle", "handle"],
  ["our tiktok handle is storehandle", "handle"],
  ["snapchat username: storehandle", "handle"],
  ["facebook = storehandle", "handle"],
  ["twitter: @ storehandle", "handle"],
  ["whatsapp: storehandle", "handle"],
  ["telegram: (at)storehandle", "handle"],
  ["ig: at storehandle", "handle"],
  ["wechat id storehandle", "handle"],
  ["see facebook.com/storehandle", "url"],
  ["wa.me/15551234567", "url"],
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
  // sizes, prices, quantities, dates, times and product codes written with separators
  "Sizes 6, 7, 8, 9, 10, 11, 12 are in the box.",
  "Sizes: 8/9/10/11/12/13",
  "Sizes 8-10, 12-14, 16-18",
  "Sizes 8, 8.5, 9, 9.5, 10, 10.5, 11",
  "We can take 100, 200, 300, 400 units.",
  "Quantities 12, 24, 36, 48, 60 per size.",
  "Prices $1,234.56, $2,345.67 and $3,456.78.",
  "Prices 1,200.00, 1,350.50, 1,500.00, 1,650.00",
  "Totals: 1,234,567.89",
  "Unit price 12.50, 13.75, 14.25, 15.00",
  "Delivered 11/28/2026, picked up 11/24/2026.",
  "Window 12/05/2026-12/19/2026",
  "From 2026-11-28 to 2026-12-05",
  "Shipped 28.11.2026, arrives 02.12.2026",
  "Open 9:00-17:00, Saturday 10:00-14:00",
  "Codes IM-909-DX, IM-909-DI and CF-610, CF-611.",
  "SKU 4512-BLK-10, 4512-BLK-11",
  "3 boxes, 12 pairs, 4 sizes, 2 colours",
  "Order WX-000123, 2 x 12 pairs, $1,234.56",
  "Meet at 5pm? I'm at @5pm too busy",
  "We are at home, hello,\nat the back door",
  "Meet @ the store at 5",
  "I saw it on instagram yesterday.",
  "Our instagram page has the photos of the line.",
  "Sizes: line 1: 8, 9, 10",
  "Ok, 2 of size 9",
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
