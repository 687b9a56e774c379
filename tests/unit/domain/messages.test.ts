import { describe, expect, it } from "vitest";
import * as M from "../../../domain/messages";
import { BULK_UPLOAD_MSG } from "../../../domain/retailer-admin";
import { UPLOAD_ERROR_FLAG } from "../../../domain/catalogue-upload";
import { CELLPHONE_MESSAGE } from "../../../app/components/banners";
import { DEFAULT_ERROR_TEXT, SERVER_ERROR_TEXT } from "../../../app/components/errors";

describe("the product's messages are verbatim", () => {
  it.each([
    ["CANNOT_CREATE_LISTING", "Cannot create listing"],
    [
      "LISTING_UNAVAILABLE",
      "Sorry, but the listing you are looking for is unavailable. It may have already been purchased or was taken down by the listing retailer.",
    ],
    ["LISTING_PENDING_TRANSACTIONS", "This listing has pending transactions."],
    ["ACTION_REQUIRED", "Action Required!"],
    [
      "BUY_ALREADY_YOUR_MOVE",
      "You requested this item and an order has already been created. Go to your Pending Orders to complete checkout.",
    ],
    [
      "BUY_ALREADY_THEIR_MOVE",
      "You already requested this item from this retailer. Please wait for them to approve or decline the transaction.",
    ],
    [
      "SWAP_ALREADY_YOUR_MOVE",
      "You already have a swap waiting for your response with this same retailer. Please check your Pending Orders.",
    ],
    [
      "SWAP_ALREADY_THEIR_MOVE",
      "You already have a swap in progress with this same retailer. Please wait for them to respond.",
    ],
    [
      "OWN_LISTING_EXISTS",
      "We have a problem, You already have a listing for this item; if a sale is proposed, wait for the retailer to respond.",
    ],
    ["SELECT_COLOR_OPTION", "You must select a color option to continue"],
    ["ALREADY_LISTED", "Sorry, we cannot add a listing for an already listed item"],
    ["ALREADY_REQUESTED", "Sorry, we cannot add a request for an already requested item"],
    ["MODIFIED_REASON_REQUIRED_LISTING", "You must select a reason for updating your listing."],
    ["MODIFIED_REASON_REQUIRED_REQUEST", "You must select a reason for updating your request."],
    ["CHECK_INVENTORY_OWN_LISTING", "Please check your inventory or remove your active listings."],
    ["ADD_AT_LEAST_ONE_SIZE", "Please add at least one size."],
    ["FILL_OUT_EVERYTHING", "* Please fill out everything to continue."],
    ["CARD_DECLINED", "Sorry but this card was declined. Please try another."],
    [
      "TOTAL_TOO_HIGH",
      "You cannot select more units than what the retailer has requested to purchase.",
    ],
    ["PAYMENT_QUEUED", "payment is queued for processing."],
    ["CONFIGURE_PAYOUT_TITLE", "Configure Payout Settings"],
    ["CONFIGURE_PAYOUT_TEXT", "Before you can sell something, you need to tell us how to pay you."],
    ["SETUP_MY_PAYOUTS", "Setup My Payouts"],
    ["RATE_THIS_TRANSACTION", "Rate this Transaction"],
    ["RATING_SAVED", "Rating saved!"],
    ["NOT_YET_RATED", "Not Yet Rated"],
    ["PICTURE_REQUIRED", "* picture required"],
    ["NO_LISTINGS_FOR_BRAND", "You have no listings for this brand."],
    ["NO_REQUESTS_FOR_BRAND", "You have no requests for this brand."],
    [
      "NO_ACTIVE_REQUESTS_FOR_BRAND",
      "There are no active requests from retailers of this brand at the moment.",
    ],
    ["NO_REQUESTS_RIGHT_NOW", "No requests right now."],
    ["FIXED", "FIXED!"],
    ["SWAP_REQUEST_DECLINED", "Swap Request Declined"],
    ["SWAP_AWAITING_RETAILER", "awaiting retailer's response"],
    ["SWAP_AWAITING_YOUR_SELECTION", "awaiting your selection"],
    ["REASON_PREFIX_OTHER", "Other Retailer:"],
    ["REASON_PREFIX_YOU", "You:"],
  ])("%s", (name, text) => {
    expect((M as Record<string, unknown>)[name]).toBe(text);
  });

  it("builders", () => {
    expect(M.alreadyTransactingMessage("buy", "yourmove")).toBe(M.BUY_ALREADY_YOUR_MOVE);
    expect(M.alreadyTransactingMessage("buy", "theirmove")).toBe(M.BUY_ALREADY_THEIR_MOVE);
    expect(M.alreadyTransactingMessage("swap", "yourmove")).toBe(M.SWAP_ALREADY_YOUR_MOVE);
    expect(M.alreadyTransactingMessage("swap", "theirmove")).toBe(M.SWAP_ALREADY_THEIR_MOVE);
    expect(M.noActiveListingsText("buy")).toBe(
      "There are no active listings available to buy from retailers of this brand at the moment.",
    );
    expect(M.noActiveListingsText("swap")).toBe(
      "There are no active listings available to swap from retailers of this brand at the moment.",
    );
    expect(M.alertsEmptyText("pending", "sales")).toBe(
      "You have no pending sales at this time. Check the other tabs...",
    );
    expect(M.alertsEmptyText("declined", "swaps")).toBe(
      "You have no declined swaps at this time. Check the other tabs...",
    );
    expect(M.reasonWithPrefix("No longer need it", false)).toBe(
      "Other Retailer: No longer need it",
    );
    expect(M.reasonWithPrefix("No longer need it", true)).toBe("You: No longer need it");
  });

  it("RMA printed texts follow docs/product/windows.md (staff reply within five business days)", () => {
    expect(M.RMA_PRINTED_TEXTS.staffReply).toContain("five business days");
    expect(M.RMA_PRINTED_TEXTS.requestWindow).toContain("48 hours");
    expect(M.RMA_PRINTED_TEXTS.returnShipping).toContain("four business days");
    expect(M.RMA_PRINTED_TEXTS.missingUnits).toContain("three business days");
  });

  it("every exported string is non-empty", () => {
    for (const [name, value] of Object.entries(M)) {
      if (typeof value === "string") expect(value.trim(), name).not.toBe("");
    }
  });
});

describe("the product's messages kept beside the code that shows them are verbatim", () => {
  it.each([
    ["the 500 page", SERVER_ERROR_TEXT, "A server error has occured"],
    ["any other error", DEFAULT_ERROR_TEXT, "An error has occured"],
    [
      "the cell-phone banner",
      CELLPHONE_MESSAGE,
      "Action Required! You must fill in your cell phone number so that we can notify you when you have orders to approve.",
    ],
    ["a bulk upload without a file", BULK_UPLOAD_MSG.invalidInput, "INVALID INPUT"],
    ["a bulk upload that cannot be read", BULK_UPLOAD_MSG.fileHasIssues, "file has issues"],
    [
      "a collection upload's preview with problems",
      UPLOAD_ERROR_FLAG,
      "one or more missing or incorrect data were found. please fix it here!",
    ],
  ])("%s", (_where, actual, text) => {
    expect(actual).toBe(text);
  });
});
