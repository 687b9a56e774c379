// The order workflows' custom search attributes (workflows/common/search-attributes.ts): every server this
// project starts registers exactly that list (the dev servers' --search-attribute flags of
// scripts/lib/temporal.mjs, docker-compose.yml's one-shot `temporal operator search-attribute create`), within
// SQL visibility's columns; and each kind maps its model to them as its read-model row does (state, stage,
// whose move). tests/workflows/ops-queries.test.ts runs README "Ops"'s queries on a dev server.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TypedSearchAttributes } from "@temporalio/common";
import { describe, expect, test } from "vitest";
import { SEARCH_ATTRIBUTES } from "../../config/temporal-engine.mjs";
import { engineArgs, searchAttributeCreateArgs } from "../../scripts/lib/temporal.mjs";
import { buySearchFacts, createBuyModel } from "../../workflows/buy/model";
import {
  ORDER_SEARCH_ATTRIBUTES,
  ORDER_SEARCH_ATTRIBUTE_KEYS,
  orderSearchAttributes,
  waitingOnOf,
  type OrderSearchFacts,
} from "../../workflows/common/search-attributes";
import { createRmaModel, rmaSearchFacts } from "../../workflows/rma/model";
import { createSwapModel, swapSearchFacts } from "../../workflows/swap/model";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The declaration as `name → type` the way the CLI and the server's metadata spell types (Keyword, Int...). */
const declared = Object.fromEntries(
  ORDER_SEARCH_ATTRIBUTE_KEYS.map((k) => [k.name, TypedSearchAttributes.toMetadataType(k.type)]),
);

describe("registration: one list", () => {
  test("config/temporal-engine.mjs SEARCH_ATTRIBUTES is the TypeScript declaration", () => {
    expect(SEARCH_ATTRIBUTES).toEqual(declared);
  });

  test("every dev server gets a --search-attribute flag per attribute (engineArgs)", () => {
    for (const fileBacked of [true, false]) {
      const args = engineArgs({ fileBacked });
      const flags = args.flatMap((a, i) => (a === "--search-attribute" ? [args[i + 1]] : []));
      expect(flags.sort()).toEqual(
        Object.entries(declared)
          .map(([n, t]) => `${n}=${t}`)
          .sort(),
      );
    }
  });

  test("a reused server is given the same list with `temporal operator search-attribute create`, one attribute per command", () => {
    // Given several --name and one --type, the CLI registers only the first name.
    const got: Record<string, string> = {};
    for (const args of searchAttributeCreateArgs("127.0.0.1:7233")) {
      expect(args.slice(0, 5)).toEqual([
        "operator",
        "search-attribute",
        "create",
        "--address",
        "127.0.0.1:7233",
      ]);
      expect(args.filter((a) => a === "--name")).toHaveLength(1);
      got[args[args.indexOf("--name") + 1]] = args[args.indexOf("--type") + 1];
    }
    expect(got).toEqual(declared);
  });

  test("docker-compose.yml registers the same list on its Postgres-backed server, before the worker starts", () => {
    const compose = fs.readFileSync(path.join(ROOT, "docker-compose.yml"), "utf8");
    const commands = compose.match(/temporal operator search-attribute create [^\n&]*/g) ?? [];
    expect(commands.length).toBeGreaterThan(0);
    const got: Record<string, string> = {};
    for (const c of commands) {
      const names = [...c.matchAll(/--name (\w+)/g)].map((x) => x[1]);
      expect(names, c).toHaveLength(1);
      got[names[0]] = /--type (\w+)/.exec(c)?.[1] as string;
    }
    expect(got).toEqual(declared);
    expect(compose).toMatch(
      / {6}temporal-search-attributes:\n {8}condition: service_completed_successfully/,
    );
  });

  test("within SQL visibility's columns (at most 3 Int, 3 KeywordList, 10 Keyword custom attributes)", () => {
    const count = (t: string) => Object.values(declared).filter((x) => x === t).length;
    expect(count("Int")).toBeLessThanOrEqual(3);
    expect(count("KeywordList")).toBeLessThanOrEqual(3);
    expect(count("Keyword")).toBeLessThanOrEqual(10);
    expect(new Set(Object.keys(declared)).size).toBe(ORDER_SEARCH_ATTRIBUTE_KEYS.length);
  });
});

describe("what an order says", () => {
  const T0 = Date.parse("2026-03-02T15:00:00.000Z");
  const values = (f: OrderSearchFacts) =>
    Object.fromEntries(orderSearchAttributes(f).map((p) => [p.key.name, p.value]));

  test("WaitingOn: the retailer ids whose move it is, both in a swap's payment, staff for an RMA request, none otherwise", () => {
    const f = { providerId: 12, receiverId: 34 };
    expect(waitingOnOf({ ...f, actionNeeded: "provider" })).toEqual(["12"]);
    expect(waitingOnOf({ ...f, actionNeeded: "receiver" })).toEqual(["34"]);
    expect(waitingOnOf({ ...f, actionNeeded: "both" })).toEqual(["12", "34"]);
    expect(waitingOnOf({ ...f, actionNeeded: "staff" })).toEqual(["staff"]);
    expect(waitingOnOf({ ...f, actionNeeded: null })).toEqual([]);
  });

  test("a purchase at checkout waits on its buyer; every attribute is set, with its declared type", () => {
    const m = createBuyModel(
      {
        orderId: 7,
        externalId: "WX-000007",
        kind: "from_listing",
        providerId: 12,
        receiverId: 34,
        requestId: null,
        lines: [{ listingId: 1, variationId: 2, sizes: { M: 1 }, unitPriceCents: 1000 }],
      },
      "buy:7",
      T0,
    );
    const pairs = orderSearchAttributes(buySearchFacts(m));
    expect(pairs.map((p) => p.key)).toEqual(ORDER_SEARCH_ATTRIBUTE_KEYS);
    expect(values(buySearchFacts(m))).toEqual({
      OrderNumber: "WX-000007",
      OrderKind: "buy",
      OrderState: "complete_order_checkout",
      OrderStage: "pre_shipping",
      ProviderRetailerId: 12,
      ReceiverRetailerId: 34,
      WaitingOn: ["34"],
    });
    m.statename = "ship_order";
    // Nobody's move while the carrier picks up: WaitingOn is removed (null), the stage is the read model's.
    expect(values(buySearchFacts(m))).toMatchObject({
      OrderState: "ship_order",
      OrderStage: "approved",
      WaitingOn: null,
    });
  });

  test("a swap in payment waits on both sides until each has paid", () => {
    const m = createSwapModel(
      {
        orderId: 8,
        externalId: "WX-000008",
        providerId: 12,
        receiverId: 34,
        providerLines: [{ listingId: 1, variationId: 2, sizes: { M: 1 }, unitPriceCents: 1000 }],
      },
      "swap:8",
      T0,
    );
    expect(values(swapSearchFacts(m))).toMatchObject({
      OrderKind: "swap",
      OrderState: "complete_order_checkout",
      WaitingOn: ["34"],
    });
    m.statename = "payment";
    expect(values(swapSearchFacts(m))).toMatchObject({
      OrderStage: "pre_shipping",
      WaitingOn: ["12", "34"],
    });
    m.side.receiver.payment = { paymentIntentId: "pi_1", amountCents: 100 };
    expect(values(swapSearchFacts(m))).toMatchObject({ WaitingOn: ["12"] });
  });

  test("an RMA is its read-model row: the victim is the provider, staff decide a request, the victim ships the return", () => {
    const m = createRmaModel(
      {
        rmaId: 9,
        externalId: "RMA-000009",
        orderId: 7,
        kind: "sale",
        victimId: 34,
        perpetratorId: 12,
        order: {
          kind: "sale",
          unitsReceived: 1,
          goodsCents: 1000,
          feeCents: 100,
          shippingCents: 1000,
          totalCents: 2100,
        },
        lines: [{ lineId: 1, unitPriceCents: 1000, requestedQuantity: 1, reason: 0 }],
        victimPaymentIntentId: "pi_1",
      },
      "rma:9",
      T0,
    );
    expect(values(rmaSearchFacts(m))).toEqual({
      OrderNumber: "RMA-000009",
      OrderKind: "rma",
      OrderState: "rmarequested",
      OrderStage: "rmarequested",
      ProviderRetailerId: 34,
      ReceiverRetailerId: 12,
      WaitingOn: ["staff"],
    });
    m.stage = "shipping";
    expect(values(rmaSearchFacts(m))).toMatchObject({ OrderState: "shipping", WaitingOn: ["34"] });
    m.stage = "rmacompleted";
    expect(values(rmaSearchFacts(m)).WaitingOn).toBeNull();
  });

  test("the keys are the declaration's (names are what operators type)", () => {
    expect(ORDER_SEARCH_ATTRIBUTE_KEYS.map((k) => k.name)).toEqual([
      "OrderNumber",
      "OrderKind",
      "OrderState",
      "OrderStage",
      "ProviderRetailerId",
      "ReceiverRetailerId",
      "WaitingOn",
    ]);
    expect(ORDER_SEARCH_ATTRIBUTES.waitingOn.type).toBe("KEYWORD_LIST");
  });
});
