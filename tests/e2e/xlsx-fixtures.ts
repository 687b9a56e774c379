/**
 * Files for the bulk retailer upload tests (db and browser): a workbook of retailer rows in the template's
 * columns, a zip bomb dressed as an .xlsx, and a program renamed to .xlsx.
 */
import { crc32, deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import {
  BULK_UPLOAD_COLUMNS,
  BULK_UPLOAD_EXAMPLE,
  type BulkUploadColumn,
} from "../../domain/retailer-admin";

export type UploadRowValues = Partial<Record<BulkUploadColumn, string>>;

/** A good row: the template's example with a unique store and contact e-mail. */
export function goodRow(tag: string, i: number, over: UploadRowValues = {}): UploadRowValues {
  const n = String(i).padStart(4, "0");
  return {
    ...BULK_UPLOAD_EXAMPLE,
    store_name: `Upload ${tag} Store ${n}`,
    store_email: `store-${tag}-${n}@upload.example`,
    contact_email: `contact-${tag}-${n}@upload.example`,
    contact_first_name: `First${n}`,
    brands: "",
    latitude: String(40 + ((i % 100) - 50) / 20),
    longitude: String(-74 + ((Math.floor(i / 100) % 20) - 10) / 10),
    ...over,
  };
}

/** An .xlsx whose first sheet has the template's header row and these rows. */
export async function uploadWorkbook(rows: UploadRowValues[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("retailers");
  ws.addRow([...BULK_UPLOAD_COLUMNS]);
  for (const r of rows) ws.addRow(BULK_UPLOAD_COLUMNS.map((c) => r[c] ?? ""));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

type Entry = {
  name: string;
  data: Buffer;
  /** What the directory claims the entry unzips to (a lying bomb). */ declaredSize?: number;
};

/** A zip (deflated entries) built by hand, so a test can make the directory lie. */
export function buildZip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const comp = deflateRawSync(e.data);
    const crc = crc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(comp.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, comp);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE(20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(8, 10);
    cen.writeUInt32LE(crc, 16);
    cen.writeUInt32LE(comp.length, 20);
    cen.writeUInt32LE(size, 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE(offset, 42);
    centrals.push(cen, name);
    offset += 30 + name.length + comp.length;
  }
  const cenBuf = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cenBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cenBuf, end]);
}

/**
 * A zip bomb named like a workbook: a sheet of 200 MB of zeros (about 200 KB zipped). `lying`: the directory
 * says the sheet is 1 KB, so only inflating it shows the truth.
 */
export function zipBomb(lying = false): Buffer {
  const zeros = Buffer.alloc(200 * 1024 * 1024);
  return buildZip([
    {
      name: "[Content_Types].xml",
      data: Buffer.from(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      ),
    },
    { name: "xl/workbook.xml", data: Buffer.from('<?xml version="1.0"?><workbook/>') },
    { name: "xl/worksheets/sheet1.xml", data: zeros, declaredSize: lying ? 1024 : undefined },
  ]);
}

/** The first bytes of a Windows program (MZ header, PE stub), padded: an .exe renamed to .xlsx. */
export function renamedExe(): Buffer {
  const b = Buffer.alloc(4096);
  b.write("MZ", 0, "latin1");
  b.write("This program cannot be run in DOS mode.", 78, "latin1");
  b.writeUInt32LE(0x80, 0x3c);
  b.write("PE\0\0", 0x80, "latin1");
  return b;
}
