/**
 * Messages on an order (ADR 0027; docs/product/screens.md, "Messages on an order"): what a message may say.
 * The two retailers of an order stay anonymous to each other (domain/anonymity.ts), so a message that carries a
 * way to reach the sender outside the marketplace is refused, with a message that says why: an e-mail address,
 * a phone number, a web address, or the sender's own store or contact names or street addresses. The detector reads through the
 * usual disguises: " at " / "(at)" for @, " dot " / "(dot)" for ".", digits spaced, dashed or dotted apart, and
 * digits spelled as words ("five five five ...").
 */

/** The longest message, in characters (after trimming). */
export const MESSAGE_MAX_LENGTH = 1000;

/** Messages one user may post within MESSAGE_RATE_WINDOW_MS (over all its conversations). */
export const MESSAGE_RATE_LIMIT = 10;
export const MESSAGE_RATE_WINDOW_MS = 10 * 60 * 1000;

/** At most one e-mail per conversation and recipient within this window (later messages only raise the bell). */
export const MESSAGE_MAIL_WINDOW_MS = 60 * 60 * 1000;

export type MessageRefusal = "email" | "phone" | "url" | "name";

const WHY =
  "Messages keep both retailers anonymous, so contact details cannot be shared here: please remove it and send again.";

/** The refusal texts, one per reason (shown under the message field with a 400). */
export const MESSAGE_REFUSALS: Record<MessageRefusal, string> = {
  email: `Your message was not sent: it contains an e-mail address. ${WHY}`,
  phone: `Your message was not sent: it contains a phone number. ${WHY}`,
  url: `Your message was not sent: it contains a web address. ${WHY}`,
  name: `Your message was not sent: it contains your store's or a contact's name or address. ${WHY}`,
};

export const MESSAGE_EMPTY = "Write a message before sending.";
export const MESSAGE_TOO_LONG = `A message can be at most ${MESSAGE_MAX_LENGTH} characters.`;
export const MESSAGE_RATE_LIMITED = `You have sent ${MESSAGE_RATE_LIMIT} messages in the last 10 minutes: please wait a few minutes before sending another.`;

const DIGIT_WORDS: Record<string, string> = {
  zero: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
};

/** Lower case, unicode compatibility forms folded (full-width digits and letters), zero-width characters gone. */
function fold(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, "")
    .toLowerCase();
}

/** "@" and "." as they are disguised: (at) [at] {at} " at ", (dot) [dot] " dot ", and spaces around "@". */
function undisguise(text: string): string {
  return text
    .replace(/\s*[([{<]\s*at\s*[)\]}>]\s*/g, "@")
    .replace(/\s*[([{<]\s*dot\s*[)\]}>]\s*/g, ".")
    .replace(/\s+at\s+/g, "@")
    .replace(/\s+dot\s+/g, ".")
    .replace(/\s*@\s*/g, "@")
    .replace(/\s+\.\s+/g, ".");
}

const EMAIL = /[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}/;
/** "@" then a mail provider, with or without its ending ("name at gmail"). */
const EMAIL_PROVIDER =
  /[a-z0-9._%+-]+@(gmail|googlemail|yahoo|hotmail|outlook|icloud|aol|proton|protonmail|gmx|msn|comcast)\b/;
const TLDS =
  "com|net|org|shop|store|biz|info|io|co|us|ca|uk|de|fr|online|site|website|app|dev|me|ly|gl|to|link|page|xyz|club|shoes";
const URL_LIKE = new RegExp(`(https?://|www\\.|\\b[a-z0-9-]{2,}\\.(${TLDS})\\b)`);

/** Digit words as digits ("five" -> "5"), only whole words. */
function wordsToDigits(text: string): string {
  return text.replace(
    /\b(zero|one|two|three|four|five|six|seven|eight|nine)\b/g,
    (w) => DIGIT_WORDS[w],
  );
}

/**
 * A phone number: ten or more digits written with nothing but separators between them (spaces, dashes, dots,
 * slashes, brackets, a plus), or a seven-digit local number in its 3-4 shape (555-1234, 555 1234).
 */
function hasPhone(text: string): boolean {
  const t = wordsToDigits(text);
  for (const run of t.match(/\+?\(?\d[\d\s().\-/_]*\d/g) ?? []) {
    if ((run.match(/\d/g) ?? []).length >= 10 && !isSizeRun(run)) return true;
  }
  return /(^|[^\d])\d{3}[\s.\-_]+\d{4}(?![\d.,]\d)/.test(t);
}

/**
 * A list of shoe or clothing sizes written with spaces ("6 7 8 9 10 11 12", "8 8.5 9 9.5 10"): numbers of one or
 * two digits (or a half), rising, at least one of two digits or a half. A phone number spelled apart never rises
 * through two-digit numbers like this.
 */
function isSizeRun(run: string): boolean {
  const parts = run.trim().split(/[\s/_-]+/);
  if (!parts.every((p) => /^\d{1,2}(\.5)?$/.test(p))) return false;
  const values = parts.map(Number);
  return values.every((v, i) => i === 0 || v > values[i - 1]) && parts.some((p) => p.length >= 2);
}

/** Letters and digits only (a name spelled with dashes, dots or spaces between its letters reads the same). */
const compact = (s: string) => s.replace(/[^\p{L}\p{N}]+/gu, "");
/** Words separated by one space. */
const words = (s: string) => ` ${s.replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `;

function mentionsName(text: string, names: readonly string[]): boolean {
  const c = compact(text);
  const w = words(text);
  for (const raw of names) {
    const name = fold(raw ?? "").trim();
    const n = compact(name);
    if (n.length < 3) continue;
    // A long name is found even run together or spelled apart; a short one only as whole words.
    if (n.length >= 6 ? c.includes(n) : w.includes(words(name))) return true;
  }
  return false;
}

/**
 * Why a message may not be sent, or null when it may. `ownNames`: the sender's store name(s) and its contacts'
 * names (staff: none).
 */
export function messageRefusal(
  text: string,
  ownNames: readonly string[] = [],
): MessageRefusal | null {
  const t = fold(text);
  const u = undisguise(t);
  if (EMAIL.test(u) || EMAIL_PROVIDER.test(u)) return "email";
  if (URL_LIKE.test(u)) return "url";
  if (hasPhone(t)) return "phone";
  if (mentionsName(t, ownNames)) return "name";
  return null;
}

/** Why a message cannot be sent, as shown to the sender (empty, too long, contact details), or null. */
export function checkMessage(text: string, ownNames: readonly string[] = []): string | null {
  const body = text.trim();
  if (!body) return MESSAGE_EMPTY;
  if (body.length > MESSAGE_MAX_LENGTH) return MESSAGE_TOO_LONG;
  const why = messageRefusal(body, ownNames);
  return why ? MESSAGE_REFUSALS[why] : null;
}

/** The order kinds that have a conversation, as the posting route names them (/messages/:kind/:id). */
export const CONVERSATION_KINDS = { buy: 1, swap: 2, rma: 3 } as const;
export type ConversationKind = keyof typeof CONVERSATION_KINDS;

export function conversationKind(transactionType: number): ConversationKind {
  return transactionType === 3 ? "rma" : transactionType === 2 ? "swap" : "buy";
}

/** The page a conversation is read on: the order's page, an RMA's own page. */
export function conversationPagePath(transactionType: number, orderId: number): string {
  const kind = conversationKind(transactionType);
  return kind === "rma" ? `/rma/${orderId}` : `/transaction/${kind}/${orderId}`;
}

/** The e-mail telling a party about a new message (anonymous: the sender as retailer-00{id} or "Staff"; no text). */
export function messageNoticeMail(n: { externalId: string; from: string; link: string }): {
  subject: string;
  text: string;
} {
  return {
    subject: `New message about order ${n.externalId}`,
    text:
      `${n.from} sent you a message about order ${n.externalId}. Read it and answer on the order's page: ${n.link}\n\n` +
      "You get at most one e-mail an hour for a conversation; the Alerts page shows every new message.",
  };
}
