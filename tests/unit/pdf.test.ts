/**
 * The packing slip and the shipper checklist PDFs (docs/product/screens.md, "Packing slip, checklist and label";
 * docs/product/glossary.md, "Anonymity"):
 * rendered with @react-pdf/renderer, text extracted with poppler's `pdftotext`, asserted for the printed
 * texts, the order's contents and the anonymous labels, and for the absence of any store name.
 */
import { describe, expect, it } from "vitest";
import type { PackingSlipData } from "../../db/queries/order-views/order-detail";
import { RMA_PRINTED_TEXTS } from "../../domain/messages";
import {
  PRINTED_TEXTS,
  printedDate,
  renderPackingSlip,
  renderShipperChecklist,
  SHIPPER_CHECKLIST_ITEMS,
} from "../../app/utils/pdf.server";
import { pdfText } from "../setup/pdf-text";

const NY = "America/New_York";

/** Text of a PDF, whitespace collapsed (pdftotext breaks long lines where the PDF wraps them). */
function flatText(pdf: Buffer): string {
  return pdfText(pdf).replace(/\s+/g, " ").trim();
}

const slip: PackingSlipData = {
  orderId: 41,
  externalId: "B-000041",
  typeLabel: "Sale",
  brandName: "Northwind Denim",
  createdAt: "2026-03-02T15:00:00Z",
  approvedAt: "2026-03-03T15:00:00Z",
  senderLabel: "retailer-0012",
  receiverLabel: "retailer-0034",
  trackingNumber: "1ZSANDBOX123",
  callTag: "CT-777",
  pickupBy: "2026-03-05T22:00:00Z",
  statename: "ship_order",
  displayStatus: "Pickup Scheduled",
  lines: [
    {
      productCode: "NW-501-IND",
      displayName: "Straight Jean",
      color: "Indigo",
      brandName: "Northwind Denim",
      sizes: { "30": 2, "32": 1 },
      quantity: 3,
    },
    {
      productCode: "NW-777-BLK",
      displayName: "Trucker Jacket",
      color: "Black",
      brandName: "Northwind Denim",
      sizes: { M: 1 },
      quantity: 1,
    },
  ],
  totalUnits: 4,
};

// Store names that exist in the real data of these retailers and must never be printed.
const STORE_NAMES = ["Sunset Outfitters", "Harbor Supply Co"];

describe("packing slip PDF", () => {
  it("is a PDF with the order, the contents, the anonymous parties and every printed text", async () => {
    const pdf = await renderPackingSlip(slip, NY);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = flatText(pdf);
    expect(text).toContain("Packing Slip");
    expect(text).toContain("B-000041");
    expect(text).toContain("From retailer-0012");
    expect(text).toContain("To retailer-0034");
    expect(text).toContain("NW-501-IND");
    expect(text).toContain("30 x 2, 32 x 1");
    expect(text).toContain("Total units 4");
    expect(text).toContain(`Order date ${printedDate(slip.createdAt, NY)}`);
    for (const t of PRINTED_TEXTS) expect(text).toContain(t);
    // docs/product/windows.md, "RMA windows": RA within 48 hours of receipt; replies within five business days; four business
    // days to ship a return or it is cancelled; missing units paid in three business days; damage refunded on return.
    expect(text).toContain("within 48 hours of receipt");
    expect(text).toContain("five business days");
    expect(text).toContain("four business days, or the RMA is cancelled");
    expect(text).toContain("missing units are paid within three business days");
    expect(text).toContain(RMA_PRINTED_TEXTS.damageRefunds);
    for (const name of STORE_NAMES) expect(text).not.toContain(name);
  });
});

describe("shipper checklist PDF", () => {
  it("carries the checklist, the pickup data, the contents and the printed texts, anonymously", async () => {
    const pdf = await renderShipperChecklist(slip, NY);
    const text = flatText(pdf);
    expect(text).toContain("Shipper Checklist");
    expect(text).toContain("Shipper retailer-0012");
    expect(text).toContain("Recipient retailer-0034");
    expect(text).toContain("Call tag CT-777");
    expect(text).toContain(`Ready for pickup by ${printedDate(slip.pickupBy, NY)}`);
    for (const t of SHIPPER_CHECKLIST_ITEMS) expect(text).toContain(t);
    for (const t of PRINTED_TEXTS) expect(text).toContain(t);
    expect(text).toContain("five business days");
    for (const name of STORE_NAMES) expect(text).not.toContain(name);
  });

  it("prints dates as MM/DD/YYYY in the marketplace time zone", () => {
    expect(printedDate("2026-03-05T22:00:00Z", NY)).toBe("03/05/2026");
    expect(printedDate("2026-03-06T03:00:00Z", NY)).toBe("03/05/2026");
    expect(printedDate(null, NY)).toBe("");
  });
});
