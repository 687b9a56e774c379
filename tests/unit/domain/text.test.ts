import { CONTROL_CHARACTERS_MESSAGE, text } from "../../../domain/text";
import { ContactStepSchema, RetailerStepSchema } from "../../../domain/accounts";

describe("free text refuses control characters", () => {
  test("single line: NUL, other C0, DEL, C1 and line separators are refused; accents and emoji are not", () => {
    const s = text().max(100);
    for (const bad of ["a\u0000b", "a\u0001", "a\nb", "a\tb", "\u007f", "a\u0085", "a\u2028b"]) {
      const r = s.safeParse(bad);
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues[0].message).toBe(CONTROL_CHARACTERS_MESSAGE);
    }
    for (const ok of ["Zoë", "São Paulo", "O'Brien & Sons", "🛹 shop", "  trimmed\n"])
      expect(s.safeParse(ok).success, ok).toBe(true);
  });

  test("multi line keeps tab, line feed and carriage return", () => {
    const s = text({ multiline: true });
    expect(s.parse("one\r\n\ttwo")).toBe("one\r\n\ttwo");
    expect(s.safeParse("a\u0000b").success).toBe(false);
  });

  test("the setup forms' free-text fields carry it (city, names)", () => {
    const store = RetailerStepSchema.safeParse({ city: "a\u0000b" });
    expect(store.error?.flatten().fieldErrors.city).toEqual([CONTROL_CHARACTERS_MESSAGE]);
    const contact = ContactStepSchema.safeParse({
      first_name: "a\u0000",
      last_name: "b\u0000",
      job_title: "Owner",
    });
    expect(contact.error?.flatten().fieldErrors.first_name).toEqual([CONTROL_CHARACTERS_MESSAGE]);
    expect(contact.error?.flatten().fieldErrors.last_name).toEqual([CONTROL_CHARACTERS_MESSAGE]);
  });
});
