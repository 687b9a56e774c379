/**
 * The order PDFs, rendered with @react-pdf/renderer (docs/product/screens.md, "Packing slip, checklist and label"):
 * - the packing slip (/packingslip/{external_id or action id}/), which goes inside the box;
 * - the shipper checklist (/shipperchecklist/{id}/), the seller's printable list before pickup.
 * Both are anonymous (docs/product/glossary.md, "Anonymity"): the parties appear only as `retailer-00{id}`;
 * they are built from PackingSlipData, which carries no name, e-mail, phone or address at all.
 * The printed RMA texts come from domain/messages RMA_PRINTED_TEXTS (the reply window is five business days
 * on both documents, where an older printed text said three: docs/product/windows.md, "RMA windows").
 */
import { Document, Page, StyleSheet, Text, View, renderToBuffer } from "@react-pdf/renderer";
import type { ReactNode } from "react";
import type { PackingSlipData } from "../../db/queries/order-views/order-detail";
import { formatDate } from "../../domain/date-format";
import { RMA_PRINTED_TEXTS } from "../../domain/messages";

/** Dates on paper: MM/DD/YYYY in the marketplace time zone (MARKETPLACE_TZ, passed in by the route). */
export function printedDate(iso: string | null, timeZone: string): string {
  return formatDate(iso, timeZone);
}

export function sizesText(sizes: Record<string, number>): string {
  return Object.entries(sizes)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} x ${n}`)
    .join(", ");
}

/** The printed texts in the order both documents show them. */
export const PRINTED_TEXTS: readonly string[] = Object.freeze([
  RMA_PRINTED_TEXTS.requestWindow,
  RMA_PRINTED_TEXTS.staffReply,
  RMA_PRINTED_TEXTS.returnShipping,
  RMA_PRINTED_TEXTS.missingUnits,
  RMA_PRINTED_TEXTS.damageRefunds,
]);

export const SHIPPER_CHECKLIST_ITEMS: readonly string[] = Object.freeze([
  "Have the goods ready for pickup within two business days of approval, or the order is cancelled with a 10% fee.",
  "Count every unit against the list below: send exactly the approved units and sizes.",
  "Put the printed packing slip inside the box, on top of the goods.",
  "Seal the box and attach the carrier's shipping label where it can be scanned.",
  "Hand the box to the carrier at the scheduled pickup (call tag). Your payout is released when the carrier scans it.",
]);

const styles = StyleSheet.create({
  page: { padding: 36, fontSize: 10, fontFamily: "Helvetica", color: "#111" },
  title: { fontSize: 18, marginBottom: 6, fontFamily: "Helvetica-Bold" },
  subtitle: { fontSize: 11, marginBottom: 12, color: "#444" },
  row: { flexDirection: "row", marginBottom: 3 },
  label: { width: 110, color: "#555" },
  value: { flex: 1 },
  section: { marginTop: 14 },
  sectionTitle: { fontSize: 12, fontFamily: "Helvetica-Bold", marginBottom: 6 },
  tableHead: {
    flexDirection: "row",
    borderBottomWidth: 1,
    borderBottomColor: "#999",
    paddingBottom: 3,
    marginBottom: 3,
    fontFamily: "Helvetica-Bold",
  },
  tableRow: {
    flexDirection: "row",
    paddingVertical: 2,
    borderBottomWidth: 0.5,
    borderBottomColor: "#ddd",
  },
  cCode: { width: 90 },
  cStyle: { flex: 1 },
  cSizes: { width: 150 },
  cQty: { width: 40, textAlign: "right" },
  bullet: { flexDirection: "row", marginBottom: 4 },
  bulletMark: { width: 14 },
  bulletText: { flex: 1 },
  box: { width: 10, height: 10, borderWidth: 1, borderColor: "#333", marginRight: 6, marginTop: 1 },
  footer: { position: "absolute", bottom: 24, left: 36, right: 36, fontSize: 8, color: "#777" },
});

function Field({ label, value }: { label: string; value: string }) {
  return (
    <View style={styles.row}>
      <Text style={styles.label}>{label}</Text>
      <Text style={styles.value}>{value}</Text>
    </View>
  );
}

function ItemsTable({ d }: { d: PackingSlipData }) {
  return (
    <View style={styles.section}>
      <Text style={styles.sectionTitle}>Contents</Text>
      <View style={styles.tableHead}>
        <Text style={styles.cCode}>Product code</Text>
        <Text style={styles.cStyle}>Style</Text>
        <Text style={styles.cSizes}>Sizes</Text>
        <Text style={styles.cQty}>Units</Text>
      </View>
      {d.lines.map((l, i) => (
        <View key={i} style={styles.tableRow} wrap={false}>
          <Text style={styles.cCode}>{l.productCode}</Text>
          <Text style={styles.cStyle}>{`${l.brandName} ${l.displayName} (${l.color})`}</Text>
          <Text style={styles.cSizes}>{sizesText(l.sizes)}</Text>
          <Text style={styles.cQty}>{String(l.quantity)}</Text>
        </View>
      ))}
      <View style={styles.row}>
        <Text style={styles.cCode}> </Text>
        <Text style={styles.cStyle}>Total units</Text>
        <Text style={styles.cSizes}> </Text>
        <Text style={styles.cQty}>{String(d.totalUnits)}</Text>
      </View>
    </View>
  );
}

/** A titled list: a dash before each item, or (`boxes`) an empty box to tick on paper. */
function BulletList({
  title,
  items,
  boxes = false,
}: {
  title: string;
  items: readonly string[];
  boxes?: boolean;
}) {
  return (
    <View style={styles.section}>
      <Text style={styles.sectionTitle}>{title}</Text>
      {items.map((t, i) => (
        <View key={i} style={styles.bullet}>
          {boxes ? <View style={styles.box} /> : <Text style={styles.bulletMark}>-</Text>}
          <Text style={styles.bulletText}>{t}</Text>
        </View>
      ))}
    </View>
  );
}

/** The page both documents share: title, order subtitle, the body, the contents, the printed RMA texts and the footer. */
function SlipPage(p: {
  d: PackingSlipData;
  name: string;
  title: string;
  rmaTitle: string;
  children: ReactNode;
}) {
  const { d } = p;
  return (
    <Document
      title={`${p.name} ${d.externalId}`}
      author="Wholesale Marketplace"
      creator="Wholesale Marketplace"
      producer="Wholesale Marketplace"
    >
      <Page size="LETTER" style={styles.page}>
        <Text style={styles.title}>{p.title}</Text>
        <Text style={styles.subtitle}>{`Order ${d.externalId}`}</Text>
        {p.children}
        <ItemsTable d={d} />
        <BulletList title={p.rmaTitle} items={PRINTED_TEXTS} />
        <Text style={styles.footer} fixed>
          {`${p.name} for order ${d.externalId}. Retailers are shown by their marketplace number only.`}
        </Text>
      </Page>
    </Document>
  );
}

export function PackingSlipDocument({ d, timeZone }: { d: PackingSlipData; timeZone: string }) {
  return (
    <SlipPage d={d} name="Packing slip" title="Packing Slip" rmaTitle="Returns (RMA)">
      <Field label="Order number" value={d.externalId} />
      <Field label="Transaction" value={d.typeLabel} />
      {d.brandName ? <Field label="Brand" value={d.brandName} /> : null}
      <Field label="Order date" value={printedDate(d.createdAt, timeZone)} />
      {d.approvedAt ? <Field label="Approved" value={printedDate(d.approvedAt, timeZone)} /> : null}
      <Field label="From" value={d.senderLabel} />
      <Field label="To" value={d.receiverLabel} />
      {d.trackingNumber ? <Field label="Tracking number" value={d.trackingNumber} /> : null}
    </SlipPage>
  );
}

export function ShipperChecklistDocument({
  d,
  timeZone,
}: {
  d: PackingSlipData;
  timeZone: string;
}) {
  return (
    <SlipPage
      d={d}
      name="Shipper checklist"
      title="Shipper Checklist"
      rmaTitle="Returns (RMA): what the recipient is told"
    >
      <Field label="Order number" value={d.externalId} />
      <Field label="Shipper" value={d.senderLabel} />
      <Field label="Recipient" value={d.receiverLabel} />
      {d.callTag ? <Field label="Call tag" value={d.callTag} /> : null}
      {d.trackingNumber ? <Field label="Tracking number" value={d.trackingNumber} /> : null}
      {d.pickupBy ? (
        <Field label="Ready for pickup by" value={printedDate(d.pickupBy, timeZone)} />
      ) : null}
      <BulletList title="Before the pickup" items={SHIPPER_CHECKLIST_ITEMS} boxes />
    </SlipPage>
  );
}

export function renderPackingSlip(d: PackingSlipData, timeZone: string): Promise<Buffer> {
  return renderToBuffer(<PackingSlipDocument d={d} timeZone={timeZone} />);
}

export function renderShipperChecklist(d: PackingSlipData, timeZone: string): Promise<Buffer> {
  return renderToBuffer(<ShipperChecklistDocument d={d} timeZone={timeZone} />);
}

/** The HTTP answer for a rendered PDF (inline: it opens in the browser's viewer, in a new tab). */
export function pdfResponse(pdf: Buffer, filename: string): Response {
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
