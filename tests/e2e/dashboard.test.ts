/**
 * In Chromium: the surplus dashboard (docs/product/screens.md, "Surplus dashboard"). A retailer with listings
 * 5, 45, 120 and 400 days old, a sale to a request and a swap sees its figures on its home: the tables beside
 * the charts and the headline figures; the charts are SVG in the page the server sends (no JavaScript needed).
 * Staff see one brand's and the whole marketplace's on the report beside the monthly metrics; a brand that is
 * not a number or not a brand gets the page with a message and a 400 / 404; a retailer cannot open it.
 * Staff also see the brand's matches made per week (a chart and its table) and download the dashboard and the
 * matches of every brand as CSVs (ADRs 0028, 0030); a retailer is refused them.
 */
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEnv } from "../../app/utils/env.server";
import { lastWeekStarts, weekBounds, weekLabel } from "../../domain/staff-metrics";
import { PERMISSION_NAMES } from "../../domain/staff-users";
import { createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories";
import { createDashboardFixture } from "../db/dashboard-fixtures";
import { parseCsv } from "./csv-parse";
import { closePage, db, launchBrowser, newPage, signIn, signInAs, url } from "./harness";
import { freshEmail, HttpClient } from "./http";

let browser: Browser;
let page: Page;
let fx: Awaited<ReturnType<typeof createDashboardFixture>>;
const emails = { retailer: freshEmail("dash-a"), staff: freshEmail("dash-staff") };

beforeAll(async () => {
  fx = await createDashboardFixture(db(), { emailA: emails.retailer });
  await createStaffUser(db(), { email: emails.staff, permissions: [...PERMISSION_NAMES] });
  browser = await launchBrowser();
  page = await newPage(browser);
}, 120_000);

afterAll(async () => {
  await closePage(page);
});

/** Each body row of a table as its cells' text (row header first). */
async function rows(testId: string, p: Page = page): Promise<string[][]> {
  return p
    .getByTestId(testId)
    .locator("tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from(tr.querySelectorAll("th, td")).map((c) => (c.textContent ?? "").trim()),
      ),
    );
}

async function figures(p: Page = page): Promise<Record<string, string>> {
  const pairs = await p
    .getByTestId("dash-figures")
    .locator("div")
    .evaluateAll((divs) =>
      divs.map((d) => [
        d.querySelector("dt")?.textContent ?? "",
        d.querySelector("dd")?.textContent ?? "",
      ]),
    );
  return Object.fromEntries(pairs);
}

describe("surplus dashboard", () => {
  it("a retailer sees its surplus on its home: listed by age, sold and swapped, money against fees", async () => {
    await signInAs(page, emails.retailer, { at: null });
    await page.goto(url("/"));
    await expect(page.getByRole("heading", { name: "Surplus dashboard" }).count()).resolves.toBe(1);
    expect(await figures()).toEqual({
      "Value listed now": "$140.00",
      "Sold (12 months)": "$40.00",
      "Swapped (12 months)": "$20.00",
      "Median days to sell": "40 days",
      "Money recovered": "$100.00",
      "Fees paid": "$3.00",
      "Requests filled": "1",
    });
    expect(await rows("dash-age-table")).toEqual([
      ["0–30 days", "1", "2", "$40.00"],
      ["31–90 days", "1", "1", "$20.00"],
      ["91–180 days", "1", "3", "$60.00"],
      ["over 180 days", "1", "1", "$20.00"],
      ["Total", "4", "7", "$140.00"],
    ]);
    const trades = await rows("dash-trades-table");
    expect(trades).toHaveLength(13);
    expect(trades[11].slice(1)).toEqual(["$40.00", "$20.00", "1"]);
    expect(trades[12]).toEqual(["Total", "$40.00", "$20.00", "1"]);
    const money = await rows("dash-money-table");
    expect(money[11].slice(1)).toEqual(["$40.00", "$60.00", "$3.00"]);
    expect(money[12]).toEqual(["Total", "$40.00", "$60.00", "$3.00"]);
    for (const id of ["dash-age", "dash-trades", "dash-money"]) {
      const svg = page.getByTestId(`${id}-svg`);
      expect(await svg.getAttribute("role")).toBe("img");
      expect(await svg.locator("title").textContent()).toBeTruthy();
      expect(await svg.locator("desc").textContent()).toBeTruthy();
      expect(await svg.locator("rect").count()).toBeGreaterThan(0);
    }
    expect(await page.getByTestId("dash-age-svg").locator("desc").textContent()).toContain(
      "0–30 days $40.00",
    );
    // Every label a chart or panel is named by is one element: no id twice on the page.
    const ids = await page.locator("[id]").evaluateAll((els) => els.map((e) => e.id));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("the charts are in the page the server sends, readable without JavaScript", async () => {
    const http = new HttpClient();
    await http.signIn(emails.retailer, DEFAULT_TEST_PASSWORD);
    const res = await http.get("/");
    expect(res.status).toBe(200);
    expect(res.body).toMatch(
      /<svg[^>]*role="img"[^>]*aria-labelledby="dash-age-title dash-age-desc"/,
    );
    expect(res.body).toContain('<title id="dash-trades-title">Sold and swapped per month</title>');
    expect(res.body).toContain("Money recovered against fees paid");
  });

  it("staff see a brand's dashboard and the whole marketplace's beside the metrics report", async () => {
    const staffPage = await newPage(browser);
    try {
      await signInAs(staffPage, emails.staff, { at: null });
      await staffPage.goto(url("/admin"));
      await staffPage
        .getByRole("link", { name: "Surplus dashboard (per brand, marketplace)" })
        .click();
      await staffPage.waitForURL(/\/admin\/reports\/dashboard$/);
      await staffPage.getByText("The whole marketplace, ").waitFor();
      expect(await staffPage.getByTestId("dash-trades-svg").count()).toBe(1);
      await staffPage.getByLabel("Brand").selectOption(String(fx.brand.id));
      await staffPage.getByRole("button", { name: "Show" }).click();
      await staffPage.waitForURL(new RegExp(`brand=${fx.brand.id}$`));
      await staffPage.getByText(`Brand ${fx.brand.name}, `).waitFor();
      expect(await figures(staffPage)).toEqual({
        "Value listed now": "$140.00",
        "Sold (12 months)": "$40.00",
        "Swapped (12 months)": "$80.00",
        "Median days to sell": "40 days",
        "Money recovered": "$120.00",
        "Fees paid": "$6.00",
        "Requests filled": "1",
      });
      expect((await rows("dash-money-table", staffPage))[12]).toEqual([
        "Total",
        "$40.00",
        "$80.00",
        "$6.00",
      ]);
    } finally {
      await closePage(staffPage);
    }
  });

  it("staff see the brand's matches made per week and download the dashboard and matches of every brand as CSVs", async () => {
    const tz = getEnv().MARKETPLACE_TZ;
    const starts = lastWeekStarts(Date.now(), tz);
    const bounds = weekBounds(starts, tz);
    const weekOf = (at: Date) =>
      bounds.findIndex((b, i) => at.getTime() >= b && at.getTime() < bounds[i + 1]);
    const expected = starts.map((start) => ({ start, counts: [0, 0, 0, 0] }));
    expected[weekOf(fx.matchedAt.request)].counts = [1, 1, 0, 1];
    expected[weekOf(fx.matchedAt.search)].counts = [1, 0, 1, 0];
    const staffPage = await newPage(browser);
    try {
      await signInAs(staffPage, emails.staff, { at: null });
      await staffPage.goto(url(`/admin/reports/dashboard?brand=${fx.brand.id}`));
      await staffPage.getByRole("heading", { name: "Matches made per week" }).waitFor();
      expect(await rows("dash-matches-table", staffPage)).toEqual([
        ...expected.map((w) => [weekLabel(w.start), ...w.counts.map(String)]),
        ["Total", "2", "1", "1", "1"],
      ]);
      const svg = staffPage.getByTestId("dash-matches-svg");
      expect(await svg.locator("desc").textContent()).toContain(
        "2 in all, 1 filling a request and 1 fitting a saved search; 1 bought or swapped",
      );

      const [download] = await Promise.all([
        staffPage.waitForEvent("download"),
        staffPage.getByRole("link", { name: "surplus dashboard per brand (CSV)" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^surplus-dashboard-\d{4}-\d{2}-\d{2}\.csv$/);
      const [header, ...records] = parseCsv(await readFile((await download.path())!, "utf8"));
      expect(header.slice(0, 4)).toEqual(["scope", "brand_id", "brand", "month"]);
      const col = (r: string[], name: string) => r[header.indexOf(name)];
      expect(records.filter((r) => col(r, "scope") === "marketplace")).toHaveLength(12);
      const brandRows = records.filter((r) => col(r, "brand_id") === String(fx.brand.id));
      expect(brandRows).toHaveLength(12);
      expect(brandRows.every((r) => col(r, "brand") === fx.brand.name)).toBe(true);
      expect(col(brandRows[0], "listed_now")).toBe("");
      const now = brandRows[11];
      expect(
        [
          "listed_now_0_30_days",
          "listed_now_31_90_days",
          "listed_now_91_180_days",
          "listed_now_over_180_days",
          "listed_now",
        ].map((c) => col(now, c)),
      ).toEqual(["40.00", "20.00", "60.00", "20.00", "140.00"]);
      expect(
        [
          "sold",
          "swapped",
          "median_days_to_sell",
          "payouts",
          "swap_values",
          "money_recovered",
          "fees_paid",
          "requests_filled",
        ].map((c) => col(now, c)),
      ).toEqual(["40.00", "80.00", "40", "40.00", "80.00", "120.00", "6.00", "1"]);
    } finally {
      await closePage(staffPage);
    }

    const staff = new HttpClient();
    await staff.signIn(emails.staff, DEFAULT_TEST_PASSWORD);
    const res = await staff.get("/admin/reports/matches-per-week.csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const [header, ...records] = parseCsv(res.body);
    expect(header).toEqual([
      "scope",
      "brand_id",
      "brand",
      "week_start",
      "matches",
      "filling_a_request",
      "fitting_a_saved_search",
      "bought_or_swapped",
    ]);
    expect(records.filter((r) => r[0] === "marketplace").map((r) => r[3])).toEqual(starts);
    expect(
      records.filter((r) => r[1] === String(fx.brand.id)).map((r) => [r[3], ...r.slice(4)]),
    ).toEqual(expected.map((w) => [w.start, ...w.counts.map(String)]));
    const hub = await staff.get("/admin");
    expect(hub.body).toContain('href="/admin/reports/surplus-dashboard.csv"');
    expect(hub.body).toContain('href="/admin/reports/matches-per-week.csv"');

    const retailer = new HttpClient();
    await retailer.signIn(emails.retailer, DEFAULT_TEST_PASSWORD);
    for (const csv of [
      "/admin/reports/surplus-dashboard.csv",
      "/admin/reports/matches-per-week.csv",
    ]) {
      const refused = await retailer.get(csv);
      expect(refused.status === 200, csv).toBe(false);
      expect(refused.body).not.toContain('"scope","brand_id"');
    }
  });

  it("bad report parameters: a message and a 4xx; a retailer cannot open the report", async () => {
    const staff = new HttpClient();
    await staff.signIn(emails.staff, DEFAULT_TEST_PASSWORD);
    const bad = await staff.get("/admin/reports/dashboard?brand=abc");
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("The brand must be chosen from the list (a brand id).");
    expect(bad.body).not.toContain('data-testid="surplus-dashboard"');
    const huge = await staff.get("/admin/reports/dashboard?brand=99999999999999");
    expect(huge.status).toBe(400);
    const missing = await staff.get("/admin/reports/dashboard?brand=999999999");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain("There is no brand 999999999: choose one from the list.");
    const retailer = new HttpClient();
    await retailer.signIn(emails.retailer, DEFAULT_TEST_PASSWORD);
    const refused = await retailer.get("/admin/reports/dashboard");
    expect(refused.status === 200).toBe(false);
    expect(refused.body).not.toContain("The whole marketplace");
  });
});
