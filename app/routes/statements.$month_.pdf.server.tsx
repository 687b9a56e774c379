/**
 * A month's statement as a printable PDF (docs/product/screens.md, "Statements"; ADR 0026), rendered with
 * @react-pdf/renderer like the packing slip. Landscape letter; the columns of the page; the counterparty only
 * as `retailer-00{id}` (lineView); the totals by kind and the balances after the lines; under the title,
 * whether the month is reconciled with the payment provider.
 */
import { Document, Page, StyleSheet, Text, View, renderToBuffer } from "@react-pdf/renderer";
import { AMOUNT_COLUMNS } from "../../domain/statements";

type Money = Record<(typeof AMOUNT_COLUMNS)[number], string>;

/** A line as printed (formatted by the statements loader: dates, dollars, the anonymous counterparty). */
export interface StatementPdfLine {
  id: number;
  date: string;
  order: string;
  kind: string;
  counterparty: string;
  description: string;
  amounts: Money;
  balance: string;
}

export interface StatementPdfData {
  opening: string;
  closing: string;
  totals: Money;
  byKind: { kind: string; count: number; amounts: Money }[];
  storeName: string;
  label: string;
  month: string;
  lines: StatementPdfLine[];
  printedOn: string;
  /** Whether the month is reconciled with the payment provider (domain/reconciliation.ts reconciledLine). */
  reconciled: string;
}

const HEADS: Record<(typeof AMOUNT_COLUMNS)[number], string> = {
  gross: "Gross",
  fee: "Fee",
  shipping: "Shipping",
  penalty: "Penalty",
  refund: "Refund",
  payout: "Payout",
  net: "Net",
};

const s = StyleSheet.create({
  page: { padding: 28, fontSize: 7.5, fontFamily: "Helvetica", color: "#111" },
  title: { fontSize: 16, marginBottom: 4, fontFamily: "Helvetica-Bold" },
  subtitle: { fontSize: 10, marginBottom: 10, color: "#444" },
  head: {
    flexDirection: "row",
    borderBottomWidth: 1,
    borderBottomColor: "#999",
    paddingBottom: 2,
    fontFamily: "Helvetica-Bold",
  },
  row: {
    flexDirection: "row",
    paddingVertical: 1.5,
    borderBottomWidth: 0.5,
    borderBottomColor: "#ddd",
  },
  bold: { flexDirection: "row", paddingVertical: 2, fontFamily: "Helvetica-Bold" },
  date: { width: 48 },
  order: { width: 70 },
  kind: { width: 44 },
  party: { width: 56 },
  desc: { flex: 1 },
  amount: { width: 50, textAlign: "right" },
  section: { marginTop: 12, fontSize: 10, fontFamily: "Helvetica-Bold", marginBottom: 4 },
  footer: { position: "absolute", bottom: 16, left: 28, right: 28, fontSize: 7, color: "#777" },
});

function Amounts({ a, balance }: { a: Record<string, string>; balance: string }) {
  return (
    <>
      {AMOUNT_COLUMNS.map((c) => (
        <Text key={c} style={s.amount}>
          {a[c]}
        </Text>
      ))}
      <Text style={s.amount}>{balance}</Text>
    </>
  );
}

function SummaryRow({
  label,
  a,
  balance = "",
}: {
  label: string;
  a: Record<string, string>;
  balance?: string;
}) {
  return (
    <View style={s.bold} wrap={false}>
      <Text style={s.date} />
      <Text style={s.order} />
      <Text style={s.kind} />
      <Text style={s.party} />
      <Text style={s.desc}>{label}</Text>
      <Amounts a={a} balance={balance} />
    </View>
  );
}

export function StatementDocument({ d }: { d: StatementPdfData }) {
  const blank = Object.fromEntries(AMOUNT_COLUMNS.map((c) => [c, ""]));
  return (
    <Document
      title={`Statement ${d.month}`}
      author="Wholesale Marketplace"
      creator="Wholesale Marketplace"
      producer="Wholesale Marketplace"
    >
      <Page size="LETTER" orientation="landscape" style={s.page}>
        <Text style={s.title}>{`Statement: ${d.label}`}</Text>
        <Text style={s.subtitle}>{`${d.storeName} · printed ${d.printedOn}`}</Text>
        <Text style={s.subtitle}>{d.reconciled}</Text>
        <View style={s.head} fixed>
          <Text style={s.date}>Date</Text>
          <Text style={s.order}>Order</Text>
          <Text style={s.kind}>Kind</Text>
          <Text style={s.party}>Counterparty</Text>
          <Text style={s.desc}>Movement</Text>
          <Amounts a={HEADS} balance="Balance" />
        </View>
        <SummaryRow label="Opening balance" a={blank} balance={d.opening} />
        {d.lines.map((l) => (
          <View key={l.id} style={s.row} wrap={false}>
            <Text style={s.date}>{l.date}</Text>
            <Text style={s.order}>{l.order}</Text>
            <Text style={s.kind}>{l.kind}</Text>
            <Text style={s.party}>{l.counterparty}</Text>
            <Text style={s.desc}>{l.description}</Text>
            <Amounts a={l.amounts} balance={l.balance} />
          </View>
        ))}
        <SummaryRow label="Total" a={d.totals} />
        <SummaryRow label="Closing balance" a={blank} balance={d.closing} />
        <Text style={s.section}>Totals by kind</Text>
        {d.byKind.map((k) => (
          <SummaryRow key={k.kind} label={`${k.kind} (${k.count})`} a={k.amounts} />
        ))}
        <Text style={s.footer} fixed>
          {`Statement ${d.month} of ${d.storeName}. Amounts in US dollars; money you paid is negative. Other retailers are shown by their marketplace number only.`}
        </Text>
      </Page>
    </Document>
  );
}

export function renderStatementPdf(d: StatementPdfData): Promise<Buffer> {
  return renderToBuffer(<StatementDocument d={d} />);
}
