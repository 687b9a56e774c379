import { CONTROL_CHARACTER, CONTROL_CHARACTERS_MESSAGE, text } from "../../../domain/text";

describe("free text: its line shape (control characters are refused where input is parsed: tests/unit/form.test.ts)", () => {
  test("single line: line breaks, C1 and the line separators are refused; accents and emoji are not", () => {
    const s = text().max(100);
    for (const bad of ["a\nb", "a\tb", "a\rb", "a\u0085", "a\u2028b", "a\u2029b"]) {
      const r = s.safeParse(bad);
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues[0].message).toBe(CONTROL_CHARACTERS_MESSAGE);
    }
    for (const ok of ["Zoë", "São Paulo", "O'Brien & Sons", "🛹 shop", "  trimmed\n"])
      expect(s.safeParse(ok).success, ok).toBe(true);
  });

  test("multi line keeps tab, line feed and carriage return; refuses C1", () => {
    const s = text({ multiline: true });
    expect(s.parse("one\r\n\ttwo")).toBe("one\r\n\ttwo");
    expect(s.safeParse("a\u0085b").success).toBe(false);
  });

  test("the control characters the boundary refuses: C0 but tab, LF and CR, and DEL", () => {
    const refused = Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(i)).filter((c) =>
      CONTROL_CHARACTER.test(c),
    );
    expect(refused.map((c) => c.charCodeAt(0))).toEqual([
      ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12],
      ...Array.from({ length: 18 }, (_, i) => 14 + i),
      127,
    ]);
  });
});
