import { hash } from "@node-rs/argon2";
import type { SizesMap } from "../../db/schema";

let counter = 0;
const runTag = Math.random().toString(36).slice(2, 7);

/**
 * A short token unique within this process and (with high probability) across processes, so test files
 * running in parallel against one database never collide on unique columns (e-mails, brand names).
 */
export function uniqueToken(): string {
  counter += 1;
  return `${runTag}${counter.toString(36)}`;
}

/** A resale (seller's permit) number in the form the store form stores: 13 digits as NN-NNNNNNNNNN-N. */
export function resaleNumber(seed?: number): string {
  const n = seed ?? Math.floor(Math.random() * 1e12);
  const digits = String(1_000_000_000_000 + (n % 9_000_000_000_000))
    .padStart(13, "0")
    .slice(-13);
  return `${digits.slice(0, 2)}-${digits.slice(2, 12)}-${digits.slice(12)}`;
}

/** argon2id with the library's default (OWASP) cost parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, {
    algorithm: 2 /* Algorithm.Argon2id (a const enum, unusable with isolatedModules) */,
  });
}

export function sumSizes(sizes: SizesMap): number {
  return Object.values(sizes).reduce((a, b) => a + b, 0);
}

/** Common colour names to swatch colours for placeholder images. */
const SWATCHES: Record<string, string> = {
  black: "#1f1f1f",
  white: "#f4f4f0",
  navy: "#1d2b4f",
  indigo: "#2e3a6e",
  "dark indigo": "#22284a",
  "light wash": "#8aa6c8",
  "mid wash": "#5b7aa6",
  rinse: "#2b3551",
  olive: "#5b6236",
  sage: "#9caf88",
  rust: "#b5532d",
  sand: "#d8c7a1",
  tan: "#c19a6b",
  brown: "#6b4a2b",
  burgundy: "#6d1f2e",
  red: "#b3262e",
  "glacier blue": "#7fb2d6",
  slate: "#59636e",
  charcoal: "#36393d",
  grey: "#8c8f93",
  heather: "#a7a9ac",
  forest: "#2f5233",
  mustard: "#d1a13a",
  cream: "#efe6cf",
  "trail orange": "#e0712c",
};

export function swatchFor(color: string): string {
  const key = color.toLowerCase();
  if (SWATCHES[key]) return SWATCHES[key];
  // Stable made-up colour for names we do not know.
  let h = 0;
  for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${h} 45% 45%)`;
}

function escapeXml(s: string): string {
  return s.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!,
  );
}

/**
 * A self-contained SVG placeholder (data: URI, no network): a swatch with the product name and colour.
 */
export function placeholderImage(label: string, color: string, size = 600): string {
  const fill = swatchFor(color);
  const text = escapeXml(label.slice(0, 40));
  const sub = escapeXml(color);
  const fs = Math.round(size / 18);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="100%" height="100%" fill="#f2f2f2"/>` +
    `<rect x="${size * 0.15}" y="${size * 0.12}" width="${size * 0.7}" height="${size * 0.56}" rx="${size * 0.04}" fill="${fill}"/>` +
    `<text x="50%" y="${size * 0.8}" font-family="sans-serif" font-size="${fs}" text-anchor="middle" fill="#333">${text}</text>` +
    `<text x="50%" y="${size * 0.89}" font-family="sans-serif" font-size="${Math.round(fs * 0.8)}" text-anchor="middle" fill="#666">${sub}</text>` +
    `</svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
