/**
 * The recorded histories the replay tests read (tests/histories) hold no bank number, tax id, birth date, e-mail
 * or street in the clear: what the history canary (tests/e2e/history-canary.test.ts) checks on a live server,
 * checked here on the files in the repository. A payload sealed by the payload codec (ADR 0040) is fine; an
 * unsealed one may carry ids, amounts and states only. Histories recorded before the codec replay as they are
 * (the codec passes unsealed payloads through) as long as none of them carries such a field.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { payloadsOf } from "../setup/history-payloads";

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../histories");
/** Fields of personal or bank data, as the payout form and the order inputs name them. */
const PERSONAL =
  /"(account_number|routing_number|bustax_id|date_of_birth|street_address|busstreet_address|email|address1|phone)"\s*:\s*"[^"]+"/;

/** The unsealed payloads that carry a personal field. */
export function personalInTheClear(history: unknown): string[] {
  return payloadsOf(history)
    .filter((p) => p.encoding !== "binary/encrypted")
    .flatMap((p) => (PERSONAL.exec(p.text) ? [PERSONAL.exec(p.text)![0]] : []));
}

describe("recorded histories", () => {
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith(".json"));

  it("the check finds a planted bank number in an unsealed payload", () => {
    const planted = {
      events: [
        {
          input: {
            payloads: [
              {
                metadata: { encoding: Buffer.from("json/plain").toString("base64") },
                data: Buffer.from('{"account_number":"000123456789"}').toString("base64"),
              },
            ],
          },
        },
      ],
    };
    expect(personalInTheClear(planted)).toEqual(['"account_number":"000123456789"']);
  });

  it.each(files)("%s: no personal or bank field in an unsealed payload", (file) => {
    const history = JSON.parse(fs.readFileSync(path.join(DIR, file), "utf8"));
    expect(payloadsOf(history).length).toBeGreaterThan(0);
    expect(personalInTheClear(history)).toEqual([]);
  });
});
