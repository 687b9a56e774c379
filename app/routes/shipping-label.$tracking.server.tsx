/**
 * The sandbox carrier's shipping label, a PDF rendered with @react-pdf/renderer (4x6 in), from the data the
 * carrier recorded when the pickup was booked, when the sender or staff open /shipping-label/{tracking}
 * (rendering at booking put ~50 ms of CPU on the seller's approval; ADR 0015).
 *
 * Anonymous (docs/product/glossary.md, "Anonymity"): the label is the one document that carries a destination
 * address; it names the recipient by the anonymous label `retailer-00{id}` and prints only the street
 * address, city, state and postal code; nothing else identifies a store (no store or business name, e-mail
 * or phone). The sender is named by its anonymous label too, with the marketplace's returns address (the
 * pickup address travels with the call tag, not on the box).
 */
import { Document, Page, StyleSheet, Text, View, renderToBuffer } from "@react-pdf/renderer";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import {
  CARRIER_RETURNS_ADDRESS,
  SANDBOX_CARRIER_NAME,
  type CarrierLabelData,
} from "../../domain/carrier-events";
import { printedDate } from "~/utils/pdf.server";

/** The label's data as the carrier recorded it at booking. */
export type LabelInput = CarrierLabelData;

const RETURNS_ADDRESS = CARRIER_RETURNS_ADDRESS;

const styles = StyleSheet.create({
  page: { padding: 14, fontSize: 10, fontFamily: "Helvetica" },
  carrier: { fontSize: 16, fontFamily: "Helvetica-Bold", marginBottom: 4 },
  box: { borderWidth: 1, borderColor: "#000", padding: 6, marginBottom: 6 },
  small: { fontSize: 8, color: "#333" },
  to: { fontSize: 14, fontFamily: "Helvetica-Bold" },
  tracking: { fontSize: 18, fontFamily: "Helvetica-Bold", letterSpacing: 1, marginTop: 4 },
  bars: { flexDirection: "row", height: 40, marginTop: 6 },
});

/** A fake barcode: bars whose widths follow the tracking number's characters. */
function Barcode({ value }: { value: string }) {
  const bars = [...value].flatMap((ch, i) => {
    const w = 1 + (ch.charCodeAt(0) % 3);
    return [
      <View key={`b${i}`} style={{ width: w, backgroundColor: "#000" }} />,
      <View key={`s${i}`} style={{ width: 1 + ((ch.charCodeAt(0) >> 2) % 2) }} />,
    ];
  });
  return <View style={styles.bars}>{bars}</View>;
}

export function LabelDocument({ input, timeZone }: { input: LabelInput; timeZone: string }) {
  const to = input.to;
  return (
    <Document
      title={`Shipping label ${input.trackingNumber}`}
      author={SANDBOX_CARRIER_NAME}
      creator={SANDBOX_CARRIER_NAME}
      producer={SANDBOX_CARRIER_NAME}
    >
      <Page size={[288, 432]} style={styles.page}>
        <Text style={styles.carrier}>{SANDBOX_CARRIER_NAME} Ground</Text>
        <View style={styles.box}>
          <Text style={styles.small}>FROM</Text>
          <Text>{anonymousRetailerLabel(input.senderId)}</Text>
          <Text>{RETURNS_ADDRESS.address1}</Text>
          <Text>{`${RETURNS_ADDRESS.city}, ${RETURNS_ADDRESS.state} ${RETURNS_ADDRESS.postalCode}`}</Text>
        </View>
        <View style={styles.box}>
          <Text style={styles.small}>SHIP TO</Text>
          <Text style={styles.to}>{anonymousRetailerLabel(input.receiverId)}</Text>
          <Text style={styles.to}>{to.address1}</Text>
          <Text style={styles.to}>{`${to.city}, ${to.state} ${to.postalCode}`}</Text>
        </View>
        <View style={styles.box}>
          <Text style={styles.small}>TRACKING NUMBER</Text>
          <Text style={styles.tracking}>{input.trackingNumber}</Text>
          <Barcode value={input.trackingNumber} />
        </View>
        <Text>{`Call tag: ${input.callTag}`}</Text>
        <Text>{`Order: ${input.externalId}`}</Text>
        <Text>{`Units: ${input.units}`}</Text>
        <Text>{`Label created: ${printedDate(input.createdAt, timeZone)}`}</Text>
        <Text>{`Pickup by: ${printedDate(input.pickupBy, timeZone)}`}</Text>
      </Page>
    </Document>
  );
}

/** The label as PDF bytes. */
export async function renderLabelPdf(input: LabelInput, timeZone: string): Promise<Buffer> {
  return renderToBuffer(<LabelDocument input={input} timeZone={timeZone} />);
}
