/**
 * Listing photos on disk: UPLOAD_DIR (default .data/uploads, git-ignored), one file per picture named
 * <uuid>.<jpg|png>, served by app/routes/uploads.$file.tsx at /uploads/<name>. The listing keeps the names
 * (listings.images). Files are checked before they are written (domain/listing-forms.ts checkPhoto: the name's
 * extension AND the bytes' signature, 5 MB at most).
 *
 * Ownership (table uploads): a picture belongs to whoever uploaded it; only its uploader can put it on a
 * listing, and see it until a listing is created with it (attachPhotos); afterwards active retailers and staff
 * see it. Pictures never attached are removed a day after their upload, by the clean-up that every
 * new upload runs (removeOrphanPhotos).
 */
import { randomUUID } from "node:crypto";
import { MaxPartSizeExceededError, type UploadHandler } from "@remix-run/node";
import fs from "node:fs/promises";
import path from "node:path";
import {
  MAX_PHOTO_BYTES,
  PHOTO_CONTENT_TYPES,
  STORED_PHOTO_NAME,
  type PhotoType,
} from "../../domain/listing-forms";
import {
  attachUploads,
  countOwnUploads,
  findUpload,
  insertUpload,
  takeOrphanUploads,
} from "../../db/queries/uploads";
import { db } from "./db.server";
import { getEnv } from "./env.server";

/** Text fields of a photo form: small (ids, names, a comment). */
const MAX_TEXT_PART_BYTES = 64 * 1024;

/**
 * Photo forms whose other fields carry a draft (the RMA wizard): a picture over MAX_PHOTO_BYTES does not
 * refuse the whole request (the draft would be lost with it); its first MAX_PHOTO_BYTES + 1 bytes are kept
 * and the rest read and dropped, so checkPhoto answers "Each picture must be 5 MB or smaller." beside the
 * picture. The request's own byte cap (readFormData maxBytes) still bounds what is read; a text field over
 * 64 KB refuses the request (413).
 */
export const cappedPhotoUploadHandler: UploadHandler = async ({
  name,
  filename,
  contentType,
  data,
}) => {
  const cap = typeof filename === "string" ? MAX_PHOTO_BYTES + 1 : MAX_TEXT_PART_BYTES;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let kept = 0;
  for await (const chunk of data) {
    if (kept >= cap) {
      if (typeof filename !== "string")
        throw new MaxPartSizeExceededError(name, MAX_TEXT_PART_BYTES);
      continue;
    }
    const part = chunk.slice(0, cap - kept);
    chunks.push(part);
    kept += part.byteLength;
  }
  if (typeof filename === "string") return new File(chunks, filename, { type: contentType });
  return new Blob(chunks, { type: contentType }).text();
};

/** How long an upload may stay off every listing before it is removed. */
export const ORPHAN_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

export function uploadDir(): string {
  return path.resolve(getEnv().UPLOAD_DIR);
}

/** Writes a checked picture owned by `uploaderId` and returns its stored name; then removes old orphans. */
export async function storePhoto(
  bytes: Uint8Array,
  type: PhotoType,
  uploaderId: number,
): Promise<string> {
  const dir = uploadDir();
  await fs.mkdir(dir, { recursive: true });
  const name = `${randomUUID()}.${type}`;
  await fs.writeFile(path.join(dir, name), bytes, { flag: "wx" });
  await insertUpload(db, { name, uploaderId });
  await removeOrphanPhotos().catch((err) =>
    console.error("[uploads] removing orphan uploads failed", err),
  );
  return name;
}

/** Removes the uploads never attached to a listing and older than ORPHAN_UPLOAD_TTL_MS (rows and files). */
export async function removeOrphanPhotos(now: Date = new Date()): Promise<string[]> {
  const names = await takeOrphanUploads(db, new Date(now.getTime() - ORPHAN_UPLOAD_TTL_MS));
  for (const name of names) {
    if (!STORED_PHOTO_NAME.test(name)) continue;
    await fs.rm(path.join(uploadDir(), name), { force: true });
  }
  return names;
}

/** The public path of a stored picture. */
export function photoUrl(name: string): string {
  return `/uploads/${name}`;
}

/**
 * May this viewer see this picture? Active retailers and staff see pictures on listings; an RMA's pictures
 * its uploader and staff (they decide it); a picture not yet on a listing only its uploader. Unknown names: no.
 */
export async function canViewPhoto(
  name: string,
  viewer: { userId: number; isStaff: boolean; retailerStatus: string | null },
): Promise<boolean> {
  if (!STORED_PHOTO_NAME.test(name)) return false;
  if (!viewer.isStaff && viewer.retailerStatus !== "active") return false;
  const upload = await findUpload(db, name);
  if (!upload) return false;
  return (
    upload.listingId !== null ||
    upload.uploaderId === viewer.userId ||
    (upload.rmaId !== null && viewer.isStaff)
  );
}

/** Reads a stored picture by name; null when the name is not one of ours or the file is missing. */
export async function readPhoto(
  name: string,
): Promise<{ bytes: Buffer; contentType: string } | null> {
  if (!STORED_PHOTO_NAME.test(name)) return null;
  try {
    const bytes = await fs.readFile(path.join(uploadDir(), name));
    const type = name.endsWith(".png") ? "png" : "jpg";
    return { bytes, contentType: PHOTO_CONTENT_TYPES[type] };
  } catch {
    return null;
  }
}

/**
 * Whether every name is a picture this user uploaded whose file exists: the only pictures a wizard may carry
 * (`images=` travels in the URL).
 */
export async function photosUsable(names: readonly string[], uploaderId: number): Promise<boolean> {
  if (names.length === 0) return true;
  if (new Set(names).size !== names.length || !names.every((n) => STORED_PHOTO_NAME.test(n)))
    return false;
  if ((await countOwnUploads(db, names, uploaderId)) !== names.length) return false;
  for (const name of names) {
    try {
      await fs.access(path.join(uploadDir(), name));
    } catch {
      return false;
    }
  }
  return true;
}

/** Puts the uploader's pictures on the new listing (they are then visible to the marketplace). */
export async function attachPhotos(
  names: readonly string[],
  listingId: number,
  uploaderId: number,
): Promise<void> {
  await attachUploads(db, names, listingId, uploaderId);
}
