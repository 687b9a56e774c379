import { describe, expect, it } from "vitest";
import { cardHtml, cardsHtml, escapeHtml, type CardTuple } from "../../app/utils/marketplace-cards";

describe("marketplace cards (one HTML string per brand)", () => {
  it("the markup React rendered before, byte for byte; a markdown step coming under the units", () => {
    const card: CardTuple = [
      35351,
      "Style Prairie 48",
      "AD-2750-NAV",
      "Navy",
      10600,
      34,
      "https://images.example/v/191-160.jpg",
      "Listed by retailer-001544",
    ];
    expect(cardHtml("buy", card)).toBe(
      '<li class="market-card" data-id="35351"><a href="/listing/buy/35351" target="_blank" rel="noopener">' +
        '<img src="https://images.example/v/191-160.jpg" alt="" width="160" height="160" loading="lazy"/>' +
        "<b>Style Prairie 48</b><code>AD-2750-NAV</code><span>Navy</span><strong>$106.00</strong><span>34 units</span>" +
        "<small>Listed by retailer-001544</small></a></li>",
    );
    const stepping: CardTuple = [...card];
    stepping[8] = "Next price $95.40 on 2026-03-08";
    expect(cardHtml("buy", stepping)).toContain(
      '<span>34 units</span><em class="market-card-next">Next price $95.40 on 2026-03-08</em><small>',
    );
  });

  it("one unit, no image (the placeholder), the request tab's link", () => {
    const html = cardHtml("sell", [
      7,
      "P",
      "C-1",
      "Red",
      123456,
      1,
      null,
      "Requested by retailer-003",
    ]);
    expect(html).toContain('href="/listing/sell/7"');
    expect(html).toContain('src="/images/placeholder-product.svg"');
    expect(html).toContain("<strong>$1,234.56</strong><span>1 unit</span>");
  });

  it("escapes every text and attribute (store names and product names are user input)", () => {
    expect(escapeHtml(`<script>"a" & 'b'</script>`)).toBe(
      "&lt;script&gt;&quot;a&quot; &amp; &#x27;b&#x27;&lt;/script&gt;",
    );
    const html = cardHtml("buy", [
      1,
      "<b>x</b>",
      "A&B",
      '"c"',
      100,
      2,
      'x" onerror="alert(1)',
      "Listed by <img src=x onerror=alert(1)>",
    ]);
    expect(html).not.toMatch(/<b>x<\/b>|onerror="alert|<img src=x/);
    expect(html).toContain('src="x&quot; onerror=&quot;alert(1)"');
    expect(html).toContain("<small>Listed by &lt;img src=x onerror=alert(1)&gt;</small>");
  });

  it("a list is the cards in order", () => {
    const a: CardTuple = [1, "A", "A-1", "Red", 100, 1, null, "x"];
    const b: CardTuple = [2, "B", "B-1", "Red", 100, 1, null, "y"];
    expect(cardsHtml("swap", [a, b])).toBe(cardHtml("swap", a) + cardHtml("swap", b));
    expect(cardsHtml("swap", [])).toBe("");
  });
});
