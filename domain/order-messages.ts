/**
 * Messages on an order (ADR 0027; docs/product/screens.md, "Messages on an order"): what a message may say.
 * The two retailers of an order stay anonymous to each other (domain/anonymity.ts), so a message that carries a
 * way to reach the sender outside the marketplace is refused, with a message that says why: an e-mail address,
 * a phone number, a web address, a social handle, or the sender's own store or contact names or street addresses.
 * The detector reads through the usual disguises: " at " / "(at)" for @, " dot " / "(dot)" for ".", digits written
 * apart with any separator (spaces, commas, dashes, dots, slashes, brackets, line breaks, mixed), and digits
 * spelled as words ("five five five, one-two-three ..."); sizes, quantities, prices, dates and times pass.
 */

/** The longest message, in characters (after trimming). */
export const MESSAGE_MAX_LENGTH = 1000;

/** Messages one user may post within MESSAGE_RATE_WINDOW_MS (over all its conversations). */
export const MESSAGE_RATE_LIMIT = 10;
export const MESSAGE_RATE_WINDOW_MS = 10 * 60 * 1000;

/** At most one e-mail per conversation and recipient within this window (later messages only raise the bell). */
export const MESSAGE_MAIL_WINDOW_MS = 60 * 60 * 1000;

export type MessageRefusal = "email" | "phone" | "url" | "handle" | "name";

const WHY =
  "Messages keep both retailers anonymous, so contact details cannot be shared here: please remove it and send again.";

/** The refusal texts, one per reason (shown under the message field with a 400). */
export const MESSAGE_REFUSALS: Record<MessageRefusal, string> = {
  email: `Your message was not sent: it contains an e-mail address. ${WHY}`,
  phone: `Your message was not sent: it contains a phone number. ${WHY}`,
  url: `Your message was not sent: it contains a web address. ${WHY}`,
  handle: `Your message was not sent: it contains a social media handle. ${WHY}`,
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

/** Digit words as digits ("five" -> "5"), only whole words; "oh" / "o" next to a digit is a zero. */
function wordsToDigits(text: string): string {
  return text
    .replace(/\b(zero|one|two|three|four|five|six|seven|eight|nine)\b/g, (w) => DIGIT_WORDS[w])
    .replace(/(?<=\d[^\p{L}\p{N}]{0,6})\b(oh|o)\b|\b(oh|o)\b(?=[^\p{L}\p{N}]{0,6}\d)/gu, "0");
}

/**
 * What stands between the digits of one number as a person writes it apart: anything but a letter, a digit or a
 * currency sign (spaces, line breaks, commas, dashes, dots, slashes, brackets, bullets, in any mix), at most
 * six characters at a time.
 */
const GAP = "[^\\p{L}\\p{N}$€£¥%#]{1,6}";
const DIGIT_RUN = new RegExp(`\\+?\\d(?:(?:${GAP})?\\d)*`, "gu");

/**
 * Figures that are no phone, each replaced by a word before the digits are counted: dates (11/28/2026,
 * 2026-11-28, 28.11.2026), times (10:30), amounts with thousands separators or cents (1,234.56, 12.50), sizes
 * with a half (8.5).
 */
const FIGURES: RegExp[] = [
  /(?<![\d/.-])(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-](\d{4}|\d{2}))(?!\d|[/.]\d)/g,
  /(?<![\d:])\d{1,2}:\d{2}(?![\d:])/g,
  /(?<![\d,.])\d{1,3}(,\d{3})+(\.\d{1,2})?(?![\d,.]*\d)/g,
  /(?<![\d,.])\d+\.\d{1,2}(?![\d.]*\d)/g,
];

/**
 * A phone number: ten or more digits written with nothing but separators between them (see GAP), digit words
 * read as digits, or a seven-digit local number in its 3-4 shape (555-1234, 555 1234). A list of sizes or of
 * quantities (isListOfFigures) is not one.
 */
function hasPhone(text: string): boolean {
  let t = wordsToDigits(text);
  for (const figure of FIGURES) t = t.replace(figure, " n ");
  for (const run of t.match(DIGIT_RUN) ?? []) {
    if ((run.match(/\d/g) ?? []).length >= 10 && !isListOfFigures(run)) return true;
  }
  return /(^|[^\d$])\d{3}[\s.,\-_/]+\d{4}(?![\d.,]\d)/.test(t);
}

/**
 * A list of sizes or quantities written apart ("6 7 8 9 10 11 12", "8, 9, 10, 11, 12", "100, 200, 300, 400"):
 * at least three numbers, rising, either of one or two digits (at least one of two), or all of the same length
 * of three digits or more. A phone number spelled apart is neither (555 123 4567; 5 5 5 1 2 3 4 5 6 7).
 */
function isListOfFigures(run: string): boolean {
  const parts = run
    .trim()
    .split(/[^\d]+/)
    .filter(Boolean);
  if (parts.length < 3) return false;
  const values = parts.map(Number);
  if (!values.every((v, i) => i === 0 || v > values[i - 1])) return false;
  if (parts.every((p) => p.length <= 2)) return parts.some((p) => p.length === 2);
  return parts.every((p) => p.length === parts[0].length && !p.startsWith("0"));
}

/** The usual networks, by the names and short forms people write before a handle. */
const NETWORKS =
  "ig|insta|instagram|fb|facebook|twitter|tiktok|tik tok|snap|snapchat|whatsapp|whats app|telegram|wechat|" +
  "we chat|linkedin|pinterest|youtube|discord|kik|skype|viber|threads|signal|bluesky|mastodon";
const NAME = "(?:@\\s*|at\\s+)?[\\p{L}\\p{N}_][\\p{L}\\p{N}_.]{2,}";
/**
 * A social handle: "@name" on its own (not an e-mail's @, not a time such as "@5pm"), or a network's name that
 * introduces a name: "ig: storehandle", "instagram -> storehandle", "my insta is storehandle", "snapchat
 * username: storehandle", "tiktok handle storehandle".
 */
const HANDLE = new RegExp(
  [
    "(?<![\\p{L}\\p{N}._%+-])@(?!\\d{1,2}(?::\\d\\d)?\\s?(?:am|pm)\\b)[\\p{L}\\p{N}_](?:[\\p{L}\\p{N}_.]*[\\p{L}\\p{N}_])?",
    `\\b(?:${NETWORKS})\\s*(?:[:=]|-+>?|>)\\s*${NAME}`,
    `\\b(?:my|our)\\s+(?:${NETWORKS})(?:\\s+(?:handle|account|username|user name|user|id|page|name))?\\s*(?:is\\b|[:=])\\s*${NAME}`,
    `\\b(?:${NETWORKS})\\s+(?:handle|account|username|user name|user|id|page|name)\\s*(?:is\\b|[:=])\\s*${NAME}`,
    `\\b(?:${NETWORKS})\\s+(?:handle|username|user name|id)\\s+${NAME}`,
  ].join("|"),
  "u",
);

/** "@" disguised as (at) [at] {at}. */
function undisguiseAt(text: string): string {
  return text.replace(/\s*[([{<]\s*at\s*[)\]}>]\s*/g, " @");
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
  if (HANDLE.test(undisguiseAt(t))) return "handle";
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
