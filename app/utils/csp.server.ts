/**
 * The Content-Security-Policy of HTML pages (set by app/entry.server.tsx with a fresh nonce per page).
 *
 * - Scripts: this origin's bundles plus inline scripts carrying the page's nonce (Remix's hydration data,
 *   module loader and scroll restoration get it from root.tsx); no 'unsafe-inline', no 'unsafe-eval'.
 * - Stripe Elements (STRIPE_PUBLISHABLE_KEY set): js.stripe.com scripts and frames, api.stripe.com calls,
 *   per Stripe's CSP guide.
 * - CHAT_WIDGET_SNIPPET: the origins of its <script src> are allowed for scripts, frames and connections, and each of its inline scripts by its SHA-256 hash (the snippet is static configuration).
 * - Styles: 'self' 'unsafe-inline' (React style attributes, Stripe's injected styles); images: 'self', data:,
 *   blob: and any https host (catalogue pictures). Neither can run code.
 * - frame-ancestors 'none' (as X-Frame-Options DENY), object-src 'none', base-uri and form-action 'self'.
 * - Development: ws: connections for the live-reload socket.
 */
import { createHash, randomBytes } from "node:crypto";

export type CspInput = {
  nonce: string;
  stripe: boolean;
  chatWidgetSnippet?: string | null;
  development?: boolean;
};

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

const STRIPE = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
};

/** Script origins and inline-script hashes of a chat widget snippet. */
export function snippetSources(snippet: string | null | undefined): {
  origins: string[];
  hashes: string[];
} {
  const origins = new Set<string>();
  const hashes: string[] = [];
  for (const m of (snippet ?? "").matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const src = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(m[1]);
    if (src) {
      try {
        const u = new URL(src[1] ?? src[2] ?? src[3]);
        if (u.protocol === "https:") origins.add(u.origin);
      } catch {
        // a relative or broken src: served by this origin or not at all
      }
    } else if (m[2].trim() !== "") {
      hashes.push(`'sha256-${createHash("sha256").update(m[2], "utf8").digest("base64")}'`);
    }
  }
  return { origins: [...origins], hashes };
}

export function contentSecurityPolicy(input: CspInput): string {
  const chat = snippetSources(input.chatWidgetSnippet);
  const s = input.stripe;
  const directives: [string, string[]][] = [
    ["default-src", ["'self'"]],
    [
      "script-src",
      [
        "'self'",
        `'nonce-${input.nonce}'`,
        ...(s ? STRIPE.script : []),
        ...chat.origins,
        ...chat.hashes,
      ],
    ],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    // Catalogue pictures may come from brands' or a CDN's https hosts; an image cannot run code.
    ["img-src", ["'self'", "data:", "blob:", "https:"]],
    ["font-src", ["'self'", "data:"]],
    [
      "connect-src",
      [
        "'self'",
        ...(s ? STRIPE.connect : []),
        ...chat.origins,
        ...(input.development ? ["ws:"] : []),
      ],
    ],
    ["frame-src", [...(s ? STRIPE.frame : []), ...chat.origins]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["form-action", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
  ];
  return directives
    .map(([name, values]) => `${name} ${values.length > 0 ? values.join(" ") : "'none'"}`)
    .join("; ");
}
