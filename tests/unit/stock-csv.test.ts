import { describe, expect, it } from "vitest";
import { STOCK_MSG } from "../../domain/stock-import";
import { readCsv } from "../../app/utils/stock-csv.server";

const enc = (s: string) => new TextEncoder().encode(s);

/** The bytes as a stream delivers them: in pieces of `size` bytes. */
async function* pieces(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe("readCsv", () => {
  it.each([
    [
      "commas, CRLF, quotes",
      'a,b,c\r\n"x, y","say ""hi""",3\r\n',
      [
        ["a", "b", "c"],
        ["x, y", 'say "hi"', "3"],
      ],
    ],
    [
      "semicolons (the header's separator)",
      "a;b;c\n1;2,5;3\n",
      [
        ["a", "b", "c"],
        ["1", "2,5", "3"],
      ],
    ],
    [
      "a UTF-8 BOM dropped, blank lines skipped",
      "\uFEFFa,b\n\n1,2",
      [
        ["a", "b"],
        ["1", "2"],
      ],
    ],
    [
      "a quoted newline",
      'a,b\n"1\n2",3\n',
      [
        ["a", "b"],
        ["1\n2", "3"],
      ],
    ],
    [
      "CR, LF and CRLF line ends in one file, a line of blanks skipped",
      "a,b\r1,2\n , \r\n3,4",
      [
        ["a", "b"],
        ["1", "2"],
        ["3", "4"],
      ],
    ],
    [
      "a quote inside a cell kept as text",
      'a,b\n5" x,2\n',
      [
        ["a", "b"],
        ['5" x', "2"],
      ],
    ],
  ])("%s", async (_n, text, rows) => {
    expect(await readCsv(enc(text))).toEqual(rows);
    // The same rows when the bytes come one or three at a time (a mark, a quote or a "é" cut in two).
    expect(await readCsv(pieces(enc(text), 1))).toEqual(rows);
    expect(await readCsv(pieces(enc(text), 3))).toEqual(rows);
  });

  it.each([
    [
      "Latin-1 bytes",
      new Uint8Array([0x63, 0x6f, 0x64, 0x65, 0x0a, 0xe9, 0x74, 0xe9]),
      STOCK_MSG.notUtf8,
    ],
    ["UTF-16", new Uint8Array([0xff, 0xfe, 0x61, 0x00]), STOCK_MSG.notUtf8],
    ["a program (NUL bytes)", new Uint8Array([0x4d, 0x5a, 0x00, 0x00]), STOCK_MSG.notText],
    ["an unclosed quote", enc('a,b\n"x,1\n'), STOCK_MSG.badQuotes(2)],
    [
      "an unclosed quote after blank lines and a quoted newline",
      enc('a,b\n"1\n2",3\n\n"x,1\n4,5\n'),
      STOCK_MSG.badQuotes(5),
    ],
  ])("refuses %s", async (_n, bytes, message) => {
    await expect(readCsv(bytes)).rejects.toThrow(message);
    await expect(readCsv(pieces(bytes, 1))).rejects.toThrow(message);
  });

  it("refuses more than maxRows rows under the header", async () => {
    const ok = "a\n" + "1\n".repeat(5);
    expect(await readCsv(enc(ok), 5)).toHaveLength(6);
    await expect(readCsv(enc(ok + "1\n"), 5)).rejects.toThrow(STOCK_MSG.tooManyRows);
  });

  it("stops reading at the row cap (an endless file: the cap, plus what the streams buffer, about 16 KiB)", async () => {
    let read = 0;
    async function* endless() {
      yield enc("a\n");
      for (;;) {
        read++;
        yield enc("1\n".repeat(100));
      }
    }
    await expect(readCsv(endless(), 1000)).rejects.toThrow(STOCK_MSG.tooManyRows);
    expect(read * 200).toBeLessThan(1000 * 2 + 32 * 1024);
  });
});
