/**
 * Listing photos on disk: UPLOAD_DIR (default .data/uploads, git-ignored), one file per picture named
 * <uuid>.<jpg|png>, served by app/routes/uploads.$file.tsx at /uploads/<name>. The listing keeps the names
 * (listings.images). Files are checked before they are written (domain/listing-forms.ts checkPhoto: the name's
 * extension AND the bytes' signature, 5 MB at most).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { PHOTO_CONTENT_TYPES, STORED_PHOTO_NAME, type PhotoType } from "../../domain/listing-forms";
import { getEnv } from "./env.server";

export function uploadDir(): string {
  return path.resolve(getEnv().UPLOAD_DIR);
}

/** Writes a checked picture and returns its stored name. */
export async function storePhoto(bytes: Uint8Array, type: PhotoType): Promise<string> {
  const dir = uploadDir();
  await fs.mkdir(dir, { recursive: true });
  const name = `${randomUUID()}.${type}`;
  await fs.writeFile(path.join(dir, name), bytes, { flag: "wx" });
  return name;
}

/** The public path of a stored picture. */
export function photoUrl(name: string): string {
  return `/uploads/${name}`;
}

/** Reads a stored picture by name; null when the name is not one of ours or the file is missing. */
export async function readPhoto(name: string): Promise<{ bytes: Buffer; contentType: string } | null> {
  if (!STORED_PHOTO_NAME.test(name)) return null;
  try {
    const bytes = await fs.readFile(path.join(uploadDir(), name));
    const type = name.endsWith(".png") ? "png" : "jpg";
    return { bytes, contentType: PHOTO_CONTENT_TYPES[type] };
  } catch {
    return null;
  }
}

/** Whether every name is a stored picture that exists. */
export async function photosExist(names: readonly string[]): Promise<boolean> {
  for (const name of names) {
    if (!STORED_PHOTO_NAME.test(name)) return false;
    try {
      await fs.access(path.join(uploadDir(), name));
    } catch {
      return false;
    }
  }
  return true;
}
