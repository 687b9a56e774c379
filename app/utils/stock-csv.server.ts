/**
 * A stock file's CSV (docs/product/screens.md, "Stock file import"; ADR 0029): its bytes, chunk by chunk, through
 * csv-parse (the family of the csv-stringify that writes the reports), as rows of cells. The rows are counted
 * as they arrive and the reading stops at the first refusal (StockFileRejected, with domain/stock-import.ts
 * STOCK_MSG's message for the user):
 *
 *   UTF-16 (its byte-order mark)      notUtf8        a NUL byte (a program, UTF-16 without a mark)   notText
 *   bytes that are not UTF-8          notUtf8        more than maxRows rows under the header          tooManyRows
 *   a quote never closed              badQuotes(the line its row starts on)
 *
 * A UTF-8 byte-order mark is dropped; "," or ";" is the separator, the header line's (csvSeparator); a line of
 * blanks is skipped; a quote inside a cell, or after a closing quote, is kept as text. A file with two faults
 * is refused for the first one met from its start (a NUL byte is met before a bad byte of the same chunk).
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CsvError, parse } from "csv-parse";
import {
  csvSeparator,
  STOCK_IMPORT_LIMITS,
  STOCK_MSG,
  StockFileRejected,
} from "../../domain/stock-import";

/** The size of the pieces a file already in memory is read in. */
const CHUNK_BYTES = 64 * 1024;

/** A file's bytes as the pieces a stream delivers: a Buffer in CHUNK_BYTES pieces, or the stream itself. */
function chunksOf(source: Uint8Array | AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  if (!(source instanceof Uint8Array)) return source;
  return (async function* () {
    for (let at = 0; at < source.length; at += CHUNK_BYTES)
      yield source.subarray(at, at + CHUNK_BYTES);
  })();
}

/** The bytes as UTF-8 text, checked piece by piece: UTF-16's mark and NUL bytes refused first, then bad UTF-8. */
async function* checkedText(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let head: Uint8Array | null = new Uint8Array(0);
  let first = true;
  const decode = (bytes: Uint8Array, end: boolean): string => {
    if (bytes.includes(0)) throw new StockFileRejected(STOCK_MSG.notText);
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: !end });
    } catch {
      throw new StockFileRejected(STOCK_MSG.notUtf8);
    }
    // The decoder drops one UTF-8 byte-order mark; a second one is dropped here.
    if (first && text !== "") {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
  };
  for await (const chunk of chunks) {
    let bytes = chunk;
    if (head) {
      // UTF-16's byte-order mark is the first two bytes, which may come in two pieces.
      bytes = Buffer.concat([head, chunk]);
      if (bytes.length < 2) {
        head = bytes;
        continue;
      }
      head = null;
      if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
        throw new StockFileRejected(STOCK_MSG.notUtf8);
    }
    const text = decode(bytes, false);
    if (text !== "") yield text;
  }
  const last = decode(head ?? new Uint8Array(0), true);
  if (last !== "") yield last;
}

/**
 * A CSV file's rows of cells, header first (blank lines left out). Reads `source` (the bytes, or a stream of
 * them) through csv-parse and stops at the first refusal, or as soon as there are more than maxRows rows under
 * the header. Throws StockFileRejected with the message for the user.
 */
export async function readCsv(
  source: Uint8Array | AsyncIterable<Uint8Array>,
  maxRows: number = STOCK_IMPORT_LIMITS.maxRows,
): Promise<string[][]> {
  const text = checkedText(chunksOf(source));
  // The separator is the header line's: read up to its end (or the file's) before the parser starts.
  let start = "";
  for (let next = await text.next(); ; next = await text.next()) {
    if (next.done) break;
    start += next.value;
    if (start.includes("\n")) break;
  }
  const firstLine = start.slice(0, start.search(/\r?\n|$/));
  async function* all() {
    if (start !== "") yield start;
    yield* text;
  }
  const rows: string[][] = [];
  // Rows counted as the parser makes them; the line the last one (blank ones too) ended on, as a record
  // never closed starts on the next one.
  let count = 0;
  let lastLine = 0;
  try {
    await pipeline(
      Readable.from(all()),
      parse({
        delimiter: csvSeparator(firstLine),
        record_delimiter: ["\r\n", "\n", "\r"],
        relax_quotes: true,
        relax_column_count: true,
        on_record: (record: string[], { lines }) => {
          lastLine = lines;
          if (record.every((c) => c.trim() === "")) return null;
          // The header row and maxRows rows: one more is too many (the parser stops, and so does the reading).
          if (++count > maxRows + 1) throw new StockFileRejected(STOCK_MSG.tooManyRows);
          return record;
        },
      }),
      async (records: AsyncIterable<string[]>) => {
        for await (const record of records) rows.push(record);
      },
    );
  } catch (e) {
    if (e instanceof CsvError && e.code === "CSV_QUOTE_NOT_CLOSED")
      throw new StockFileRejected(STOCK_MSG.badQuotes(lastLine + 1));
    throw e;
  }
  return rows;
}
