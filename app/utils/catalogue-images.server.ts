/**
 * Catalogue pictures (variation images) on disk: UPLOAD_DIR/catalogue/<uuid>.<jpg|png>, served at
 * /catalogue-images/<name> to anyone signed in (they are the brand's product pictures, shown in the
 * marketplace). Checked before they are written: the bytes' signature and 5 MB at most (domain checkPhoto).
 * Variation image rows keep the URL (variation_images.url).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { takeStaleCollectionUploads } from "../../db/queries/collection-uploads";
import { UNSAVED_UPLOAD_TTL_MS } from "../../domain/catalogue-upload";
import { PHOTO_CONTENT_TYPES, STORED_PHOTO_NAME, type PhotoType } from "../../domain/listing-forms";
import { db } from "./db.server";
import { uploadDir } from "./uploads.server";

export const CATALOGUE_IMAGE_PREFIX = "/catalogue-images/";

function dir(): string {
  return path.join(uploadDir(), "catalogue");
}

/** Writes a checked picture and returns its public URL. */
export async function storeCatalogueImage(bytes: Uint8Array, type: PhotoType): Promise<string> {
  await fs.mkdir(dir(), { recursive: true });
  const name = `${randomUUID()}.${type}`;
  await fs.writeFile(path.join(dir(), name), bytes, { flag: "wx" });
  return `${CATALOGUE_IMAGE_PREFIX}${name}`;
}

/** Removes the file behind one of our URLs (other URLs, e.g. placeholders, are left alone). */
export async function removeCatalogueImage(url: string): Promise<void> {
  if (!url.startsWith(CATALOGUE_IMAGE_PREFIX)) return;
  const name = url.slice(CATALOGUE_IMAGE_PREFIX.length);
  if (STORED_PHOTO_NAME.test(name)) await fs.rm(path.join(dir(), name), { force: true });
}

/**
 * Discards the collection uploads loaded but not saved within UNSAVED_UPLOAD_TTL_MS, and their pictures
 * (each new upload runs it, as listing photos' clean-up does). Returns the removed URLs.
 */
export async function removeStaleCollectionUploads(now: Date = new Date()): Promise<string[]> {
  const urls = await takeStaleCollectionUploads(
    db,
    new Date(now.getTime() - UNSAVED_UPLOAD_TTL_MS),
  );
  for (const url of urls) await removeCatalogueImage(url);
  return urls;
}

export async function readCatalogueImage(
  name: string,
): Promise<{ bytes: Buffer; contentType: string } | null> {
  if (!STORED_PHOTO_NAME.test(name)) return null;
  try {
    const bytes = await fs.readFile(path.join(dir(), name));
    return { bytes, contentType: PHOTO_CONTENT_TYPES[name.endsWith(".png") ? "png" : "jpg"] };
  } catch {
    return null;
  }
}
