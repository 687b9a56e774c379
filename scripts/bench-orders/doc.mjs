// Each mode's block of docs/performance.md: <!-- orders:… --> (default), <!-- orders-prod:… --> (--prod),
// <!-- orders-open:… --> (--open-loop), <!-- orders-commands:… --> (--commands-only), <!-- orders-swaps:… -->,
// <!-- orders-scale:… -->, <!-- orders-mix:… -->, <!-- orders-offers:… -->, <!-- orders-kills:… -->,
// <!-- orders-codec:… --> (--codec both);
// missing ones are created under "Orders".
import { writeDoc } from "../lib/perf-doc.mjs";

/** What each block holds (the heading over the markers the script creates when missing). */
const BLOCK_TITLES = {
  orders: "Default: the running dev stack, full pages, closed loop",
  "orders-prod": "`--prod`: the production build, full pages, closed loop",
  "orders-open": "`--open-loop RATE --duration S`: open loop",
  "orders-commands": "`--commands-only`: the commands alone (the workflow ceiling)",
  "orders-swaps": "`--swaps`: swaps, full pages",
  "orders-scale":
    "`--prod --scale 2`: two web processes behind a round-robin proxy and two workers",
  "orders-mix": "`--mix`: purchases, swaps and returns in turn, full pages",
  "orders-offers":
    "`--offers`: purchases by checkout, by an accepted offer and over the buyer's limit (approved by the store) in turn, full pages",
  "orders-codec":
    "`--prod --codec both`: the payload codec's cost, the same purchases with the codec on, then off",
  "orders-kills":
    "`--prod --kill-worker-every MS`: workers SIGKILLed at random moments while purchases, swaps and returns run",
};

/** Where a missing block goes: a mode's under the Orders section after the blocks there, the default's a new section. */
const placeOf = (key) => (doc, block) => {
  if (key !== "orders" && /<!-- orders:end -->/.test(doc)) {
    const ends = [...doc.matchAll(/<!-- orders(?:-[a-z]+)?:end -->/g)];
    const at = ends.at(-1).index + ends.at(-1)[0].length;
    return `${doc.slice(0, at)}\n\n#### ${BLOCK_TITLES[key]}\n\n${block}${doc.slice(at)}`;
  }
  if (key !== "orders")
    return `${doc.trimEnd()}\n\n## Orders\n\n#### ${BLOCK_TITLES[key]}\n\n${block}\n`;
  const section =
    "## Orders\n\n" +
    "`npm run bench:orders` runs purchases through the whole buy flow on the running dev stack, over HTTP as a browser's form posts " +
    "(scripts/bench-orders.mjs: data from the shared factories with a run tag, then per order buyer, seller and staff clicks), and rewrites the block below.\n\n" +
    `${block}\n`;
  return /\n## Test command/.test(doc)
    ? doc.replace(/\n## Test command/, () => `\n${section}\n## Test command`)
    : doc.trimEnd() + "\n\n" + section;
};

/** Writes the report into the block `key` of docs/performance.md. */
export function writeOrdersDoc(report, key) {
  writeDoc({ key, by: "npm run bench:orders", report, place: placeOf(key) });
}
