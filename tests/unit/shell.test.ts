import { describe, expect, it } from "vitest";
import {
  CELLPHONE_MESSAGE,
  computeBanners,
  inactiveMessage,
  isDismissibleBanner,
  safeRedirect,
  type ShellRetailer,
} from "../../app/components/banners";
import {
  DEFAULT_ERROR_TEXT,
  errorView,
  NOT_FOUND_TITLE,
  SERVER_ERROR_TEXT,
  SERVER_ERROR_TITLE,
  TRY_AGAIN_TEXT,
} from "../../app/components/errors";
import { HOME_CARDS } from "../../app/components/home";
import { logoHref, menuGroups, samePath } from "../../app/components/menu";
import {
  buildShellData,
  noticeFor,
  visiblePath,
  type ShellAuth,
  type ShellConfig,
} from "../../app/components/shell-data";
import { pageTitle } from "../../app/components/title";

const links = (groups: ReturnType<typeof menuGroups>) =>
  groups.flatMap((g) => g.items.map((i) => (i.kind === "link" ? i.to : `POST ${i.action}`)));

describe('menus (docs/product/screens.md, "Menus and banners")', () => {
  it("a retailer sees the six groups with every link", () => {
    const groups = menuGroups({ email: "a@b.test", isStaff: false });
    expect(groups.map((g) => g.title)).toEqual([
      "How It Works",
      "Browse",
      "My Listings & Requests",
      "Brands",
      "Inbox",
      "My Profile",
    ]);
    expect(links(groups)).toEqual([
      "/onboarding",
      "/how-selling-works",
      "/pricing",
      "/buy",
      "/sell",
      "/swap",
      "/addlisting",
      "/requestlisting",
      "/active/listings",
      "/active/requests",
      "/brands",
      "/alerts",
      "/alerts?status=declined",
      "/orders",
      "/rma",
      "/statements",
      "/settings",
      "POST /logout",
    ]);
  });

  it("logout is a POST form labelled with the user's email", () => {
    const profile = menuGroups({ email: "shop@x.test", isStaff: false }).find(
      (g) => g.title === "My Profile",
    )!;
    const logout = profile.items.find((i) => i.kind === "logout")!;
    expect(logout.label).toContain("shop@x.test");
  });

  it("staff also get the Admin group; retailers never do", () => {
    expect(links(menuGroups({ email: "s@x.test", isStaff: true }))).toContain("/admin");
    expect(links(menuGroups({ email: "s@x.test", isStaff: true }))).toContain("/act-as");
    expect(links(menuGroups({ email: "r@x.test", isStaff: false }))).not.toContain("/admin");
  });

  it("visitors see the information pages and sign in / register", () => {
    expect(links(menuGroups(null))).toEqual([
      "/onboarding",
      "/how-selling-works",
      "/pricing",
      "/signin",
      "/register",
    ]);
  });

  it("the logo points staff to /admin and everyone else home", () => {
    expect(logoHref({ email: "s", isStaff: true })).toBe("/admin");
    expect(logoHref({ email: "r", isStaff: false })).toBe("/");
    expect(logoHref(null)).toBe("/");
  });

  it("compares paths ignoring a trailing slash", () => {
    expect(samePath("/buy/", "/buy")).toBe(true);
    expect(samePath("/", "/")).toBe(true);
    expect(samePath("/buy", "/sell")).toBe(false);
  });
});

describe("home cards", () => {
  it("are the four cards of the home page, with their links", () => {
    expect(HOME_CARDS.map((c) => [c.to, c.text])).toEqual([
      ["/addlisting/", "what didn't sell"],
      ["/requestlisting/", "what you need"],
      ["/buy/", "see what other retailers have listed"],
      ["/sell/", "see what others requested"],
    ]);
    expect(HOME_CARDS[0].kicker).toBe("LIST");
    expect(HOME_CARDS[1].kicker).toBe("REQUEST");
  });
});

const active: ShellRetailer = {
  id: 3,
  storeName: "Shop",
  status: "active",
  payoutSet: true,
  hasCellPhone: true,
};

describe("banners", () => {
  it("no retailer (visitor, staff acting as nobody): no banners", () => {
    expect(computeBanners({ retailer: null, dismissed: [], pathname: "/" })).toEqual([]);
  });

  it("a retailer with everything set up sees none", () => {
    expect(computeBanners({ retailer: active, dismissed: [], pathname: "/" })).toEqual([]);
  });

  it("inactive retailer: a warning that cannot be dismissed", () => {
    const b = computeBanners({
      retailer: { ...active, status: "inactive" },
      dismissed: ["inactive"],
      pathname: "/",
    });
    expect(b).toEqual([{ key: "inactive", tone: "danger", dismissible: false }]);
    expect(inactiveMessage({ email: "help@x.test", phone: "1-800" })).toMatch(
      /not active.*help@x\.test.*1-800/,
    );
  });

  it("missing payout and cell phone: two Action Required banners, only the payout one dismissible", () => {
    const r = { ...active, payoutSet: false, hasCellPhone: false };
    expect(
      computeBanners({ retailer: r, dismissed: [], pathname: "/" }).map((b) => [
        b.key,
        b.dismissible,
      ]),
    ).toEqual([
      ["payout", true],
      ["cellphone", false],
    ]);
    expect(
      computeBanners({ retailer: r, dismissed: ["payout"], pathname: "/" }).map((b) => b.key),
    ).toEqual(["cellphone"]);
    // A "cellphone" dismissal left in an older session changes nothing.
    expect(
      computeBanners({ retailer: r, dismissed: ["payout", "cellphone"], pathname: "/" }).map(
        (b) => b.key,
      ),
    ).toEqual(["cellphone"]);
  });

  it("is not repeated on the page that fixes it", () => {
    const r = { ...active, payoutSet: false, hasCellPhone: false };
    expect(
      computeBanners({ retailer: r, dismissed: [], pathname: "/getpaid/" }).map((b) => b.key),
    ).toEqual(["cellphone"]);
    expect(
      computeBanners({ retailer: r, dismissed: [], pathname: "/settings/payout" }).map(
        (b) => b.key,
      ),
    ).toEqual(["cellphone"]);
    expect(
      computeBanners({ retailer: r, dismissed: [], pathname: "/settings/contact" }).map(
        (b) => b.key,
      ),
    ).toEqual(["payout"]);
  });

  it("cell-phone text is verbatim", () => {
    expect(CELLPHONE_MESSAGE).toBe(
      "Action Required! You must fill in your cell phone number so that we can notify you when you have orders to approve.",
    );
  });

  it("only known banners can be dismissed", () => {
    expect(isDismissibleBanner("payout")).toBe(true);
    expect(isDismissibleBanner("cellphone")).toBe(false);
    expect(isDismissibleBanner("inactive")).toBe(false);
    expect(isDismissibleBanner("x")).toBe(false);
    expect(isDismissibleBanner(null)).toBe(false);
  });

  it("redirects after dismissing only to a local path", () => {
    expect(safeRedirect("/buy?x=1")).toBe("/buy?x=1");
    expect(safeRedirect("//evil.test")).toBe("/");
    expect(safeRedirect("/\\evil.test")).toBe("/");
    expect(safeRedirect("https://evil.test")).toBe("/");
    expect(safeRedirect(null)).toBe("/");
  });
});

const env: ShellConfig = {
  APP_ENV: "staging",
  SUPPORT_EMAIL: "help@x.test",
  SUPPORT_PHONE: "1-800-555-0100",
};
const url = new URL("http://x.test/");

function auth(over: Partial<ShellAuth> = {}): ShellAuth {
  return {
    user: { email: "r@x.test", isStaff: false },
    session: { dismissedBanners: [] },
    retailer: { id: 7, storeName: "Shop", status: "active", btMerchantId: null },
    contact: { celphone: "" },
    actingBrand: null,
    ...over,
  };
}

describe("root loader data", () => {
  it("a visitor gets only the support contacts", () => {
    const d = buildShellData(null, env, url);
    expect(d).toMatchObject({
      user: null,
      retailer: null,
      acting: null,
      envBadge: null,
      chatWidget: null,
      dismissedBanners: [],
    });
    expect(d.support).toEqual({ email: "help@x.test", phone: "1-800-555-0100" });
  });

  it("a retailer: payout and cell phone flags, no badge, no acting-as", () => {
    const d = buildShellData(auth({ session: { dismissedBanners: ["payout"] } }), env, url);
    expect(d.retailer).toEqual({
      id: 7,
      storeName: "Shop",
      status: "active",
      payoutSet: false,
      hasCellPhone: false,
    });
    expect(d.envBadge).toBeNull();
    expect(d.acting).toBeNull();
    expect(d.dismissedBanners).toEqual(["payout"]);
  });

  it("passes no field of the retailer row beyond what the layout shows", () => {
    const row = {
      id: 7,
      storeName: "Shop",
      status: "active" as const,
      btMerchantId: "acct_1",
      storeEmail: "secret@x.test",
      address1: "1 Main",
    };
    const d = buildShellData(auth({ retailer: row, contact: { celphone: " 555 " } }), env, url);
    expect(JSON.stringify(d)).not.toContain("secret@x.test");
    expect(JSON.stringify(d)).not.toContain("acct_1");
    expect(d.retailer?.payoutSet).toBe(true);
    expect(d.retailer?.hasCellPhone).toBe(true);
  });

  it("staff: environment badge, acting-as info, and no chat widget", () => {
    const d = buildShellData(
      auth({
        user: { email: "s@x.test", isStaff: true },
        actingBrand: { id: 2, name: "ridgeline", displayName: "Ridgeline" },
      }),
      { ...env, CHAT_WIDGET_SNIPPET: "<script>chat()</script>" },
      url,
    );
    expect(d.envBadge).toBe("staging");
    expect(d.acting).toEqual({
      retailerId: 7,
      storeName: "Shop",
      brand: { id: 2, name: "Ridgeline" },
    });
    expect(d.chatWidget).toBeNull();
  });

  it("the Alerts link's count: the retailer's own header only, never staff's", () => {
    const counts = { orders: 2, conversations: 1 };
    expect(buildShellData(auth(), env, url, counts).alerts).toEqual(counts);
    const staff = auth({ user: { email: "s@x.test", isStaff: true } });
    expect(buildShellData(staff, env, url, counts).alerts).toBeNull();
    expect(buildShellData(null, env, url, counts).alerts).toBeNull();
  });

  it("staff acting as nobody: no retailer, no acting-as", () => {
    const d = buildShellData(
      auth({ user: { email: "s@x.test", isStaff: true }, retailer: null, contact: null }),
      env,
      url,
    );
    expect(d.retailer).toBeNull();
    expect(d.acting).toBeNull();
  });

  it("the chat widget is off by default and shown to a signed-in retailer when configured", () => {
    expect(buildShellData(auth(), env, url).chatWidget).toBeNull();
    expect(
      buildShellData(auth(), { ...env, CHAT_WIDGET_SNIPPET: "  " }, url).chatWidget,
    ).toBeNull();
    expect(
      buildShellData(auth(), { ...env, CHAT_WIDGET_SNIPPET: "<b>chat</b>" }, url).chatWidget,
    ).toBe("<b>chat</b>");
    expect(
      buildShellData(null, { ...env, CHAT_WIDGET_SNIPPET: "<b>chat</b>" }, url).chatWidget,
    ).toBeNull();
  });

  it("shows the password-reset success notice from ?ref=resetSuccessful", () => {
    expect(noticeFor(new URL("http://x.test/?ref=resetSuccessful"))).toBe(
      "Your password has been reset.",
    );
    expect(noticeFor(new URL("http://x.test/?ref=toString"))).toBeNull();
    expect(noticeFor(new URL("http://x.test/"))).toBeNull();
  });

  it("reads the visible path of single-fetch data requests", () => {
    expect(visiblePath(new URL("http://x.test/buy.data"))).toBe("/buy");
    expect(visiblePath(new URL("http://x.test/_root.data"))).toBe("/");
    expect(visiblePath(new URL("http://x.test/admin/"))).toBe("/admin/");
  });
});

describe("error pages", () => {
  const isResponse = (e: unknown): e is { status: number; data: unknown } =>
    typeof e === "object" && e !== null && "status" in e && "data" in e;

  it("404 is a friendly page not found", () => {
    expect(errorView({ status: 404, data: "Not Found" }, isResponse)).toMatchObject({
      status: 404,
      title: NOT_FOUND_TITLE,
    });
  });

  it("a thrown Error is 500 with the verbatim text and never its message", () => {
    const v = errorView(new Error("secret stack detail"), isResponse);
    expect(v).toEqual({ status: 500, title: SERVER_ERROR_TITLE, text: SERVER_ERROR_TEXT });
    expect(SERVER_ERROR_TITLE).toBe("500");
    expect(SERVER_ERROR_TEXT).toBe("A server error has occured");
  });

  it("other 4xx show their short text, or the default text", () => {
    expect(errorView({ status: 400, data: "Unknown banner." }, isResponse).text).toBe(
      "Unknown banner.",
    );
    expect(errorView({ status: 403, data: { x: 1 } }, isResponse).text).toBe(DEFAULT_ERROR_TEXT);
    // A 503 asks to try again in its own words, never the thrown text.
    expect(errorView({ status: 503, data: "db down at 10.0.0.1" }, isResponse).text).toBe(
      TRY_AGAIN_TEXT,
    );
  });
});

describe("titles", () => {
  it("name the page and the product", () => {
    expect(pageTitle("Pricing")).toBe("Pricing | Wholesale Exchange");
    expect(pageTitle()).toBe("Wholesale Exchange");
  });
});
