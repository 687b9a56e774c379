// The form guard (app/utils/form.server.ts, ADR 0016): byte, field, repeat and index caps, answered fast with a
// 400/413 Response, and Conform's reserved fields that never make the parse throw.
import { unstable_createMemoryUploadHandler } from "@remix-run/node";
import { z } from "zod";
import {
  FORM_LIMITS,
  CONTROL_FIELD_REFUSED,
  CONTROL_REFUSED,
  controlFields,
  parseSubmission,
  readFormData,
} from "../../app/utils/form.server";
import { RetailerStepSchema } from "../../domain/accounts";
import { CONTROL_CHARACTERS_MESSAGE } from "../../domain/text";

function post(
  body: BodyInit | null,
  contentType: string | null,
  headers: Record<string, string> = {},
): Request {
  return new Request("http://localhost/x", {
    method: "POST",
    body,
    headers: { ...(contentType ? { "Content-Type": contentType } : {}), ...headers },
    duplex: "half",
  } as RequestInit);
}
const urlencoded = (body: string) => post(body, "application/x-www-form-urlencoded");

/** The Response a call throws (fails when it resolves or throws anything else). */
async function refusal(
  p: Promise<unknown> | (() => unknown),
): Promise<{ status: number; text: string }> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    if (e instanceof Response) return { status: e.status, text: await e.text() };
    throw e;
  }
  throw new Error("expected a refusal");
}

function multipart(
  parts: { name: string; value: string; filename?: string }[],
  boundary = "----b0undary",
): string {
  return (
    parts
      .map(
        (p) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"\r\nContent-Type: image/png` : ""}\r\n\r\n${p.value}\r\n`,
      )
      .join("") + `--${boundary}--\r\n`
  );
}

describe("readFormData", () => {
  test("reads an ordinary form, repeated checkboxes and a size grid", async () => {
    const body = new URLSearchParams([
      ["email", "a@b.test"],
      ...Array.from({ length: 100 }, (_, i) => [`sizes[${i}]`, "1"]),
      ...Array.from({ length: 300 }, (_, i) => ["brand_ids", String(i)]),
    ]);
    const form = await readFormData(urlencoded(body.toString()));
    expect(form.get("email")).toBe("a@b.test");
    expect(form.getAll("brand_ids")).toHaveLength(300);
    expect(form.get("sizes[99]")).toBe("1");
  });

  test("decodes like the platform: bad escapes kept, invalid UTF-8 replaced", async () => {
    const form = await readFormData(
      post(new Uint8Array([...Buffer.from("a=%zz&b="), 0xff]), "application/x-www-form-urlencoded"),
    );
    expect(form.get("a")).toBe("%zz");
    expect(form.get("b")).toBe("\ufffd");
  });

  test("1 MB of one repeated field: 413, declared or streamed; a streamed body gets its 413 without waiting for its end", async () => {
    const body = "email=a%40b.test&".repeat(64 * 1024);
    const declared = await refusal(
      readFormData(
        post(body, "application/x-www-form-urlencoded", { "Content-Length": String(body.length) }),
      ),
    );
    expect(declared.status).toBe(413);
    expect(declared.text).toContain("at most 512 KB");
    const streamed = await refusal(readFormData(urlencoded(body)));
    expect(streamed.status).toBe(413);
    // A body whose end never comes (the client keeps the request open after 580 KB): the 413 is the answer
    // all the same, so the guard did not wait for the rest.
    const chunk = new TextEncoder().encode("email=a%40b.test&".repeat(4096)); // 68 KB
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let sent = 0;
    const neverEnds = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent > FORM_LIMITS.maxBytes) {
          await gate;
          controller.close();
          return;
        }
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const cut = await refusal(readFormData(post(neverEnds, "application/x-www-form-urlencoded")));
    expect(cut.status).toBe(413);
    release();
  });

  test("too many fields, one name repeated too often, huge or too many list indices: 400", async () => {
    const cases: [string, RegExp][] = [
      ["a=1&".repeat(FORM_LIMITS.maxEntries + 1), /too many fields/],
      [
        Array.from({ length: FORM_LIMITS.maxRepeats + 1 }, () => "email=x").join("&"),
        /"email" is repeated too many times/,
      ],
      ["sizes[100000]=1", /list index in "sizes\[100000\]" is too large/],
      ["sizes[99999999999999999999]=1", /too large/],
      ["requests[1000].brand_name=x", /too large/],
      [
        Array.from({ length: 6 }, (_, i) => `l${i}[999]=1`).join("&"),
        /lists in this form are too long/,
      ],
      [`${"n".repeat(FORM_LIMITS.maxNameLength + 1)}=1`, /field name is too long/],
    ];
    for (const [body, message] of cases) {
      const r = await refusal(readFormData(urlencoded(body)));
      expect(r.status, body.slice(0, 60)).toBe(400);
      expect(r.text).toMatch(message);
    }
  });

  test("not a form, garbage multipart, a multipart without boundary: 400", async () => {
    for (const [body, type] of [
      ['{"a":1}', "application/json"],
      ["a=1", null],
      ["a=1", "text/plain"],
      ["this is not multipart", "multipart/form-data; boundary=x"],
      ['--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--', "multipart/form-data"],
      [
        '------b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx@exa',
        "multipart/form-data; boundary=----b",
      ],
    ] as const) {
      expect((await refusal(readFormData(post(body, type)))).status, `${type} ${body}`).toBe(400);
    }
  });

  test("multipart: read in memory within the caps; 2,001 parts refused before parsing", async () => {
    const form = await readFormData(
      post(
        multipart([
          { name: "a", value: "1" },
          { name: "b", value: "2" },
        ]),
        "multipart/form-data; boundary=----b0undary",
      ),
    );
    expect(form.get("b")).toBe("2");
    const many = multipart(
      Array.from({ length: FORM_LIMITS.maxEntries + 1 }, (_, i) => ({ name: `f${i}`, value: "" })),
    );
    const r = await refusal(readFormData(post(many, "multipart/form-data; boundary=----b0undary")));
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/too many fields/);
  });

  test("multipart with an upload handler: byte cap (413), part cap (400), part size (413)", async () => {
    const opts = {
      maxBytes: 64 * 1024,
      maxEntries: 3,
      uploadHandler: unstable_createMemoryUploadHandler({ maxPartSize: 16 * 1024 }),
    };
    const type = "multipart/form-data; boundary=----b0undary";
    const ok = await readFormData(
      post(
        multipart([
          { name: "intent", value: "upload" },
          { name: "photos", value: "png", filename: "a.png" },
        ]),
        type,
      ),
      opts,
    );
    expect(ok.get("intent")).toBe("upload");
    expect(ok.get("photos")).toBeInstanceOf(File);
    const tooBig = multipart(
      Array.from({ length: 3 }, () => ({ name: "p", value: "x".repeat(30 * 1024) })),
    );
    expect((await refusal(readFormData(post(tooBig, type), opts))).status).toBe(413);
    expect(
      (
        await refusal(
          readFormData(
            post(
              multipart(Array.from({ length: 4 }, (_, i) => ({ name: `f${i}`, value: "" }))),
              type,
            ),
            opts,
          ),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await refusal(
          readFormData(
            post(
              multipart([{ name: "photos", value: "x".repeat(20 * 1024), filename: "a.png" }]),
              type,
            ),
            opts,
          ),
        )
      ).status,
    ).toBe(413);
    const truncated = multipart([
      { name: "photos", value: "x".repeat(1024), filename: "a.png" },
    ]).slice(0, 600);
    expect((await refusal(readFormData(post(truncated, type), opts))).status).toBe(400);
  });
});

describe("parseSubmission", () => {
  const schema = z.object({
    email: z.string(),
    requests: z.array(z.object({ brand_name: z.string().optional() })).optional(),
  });
  const form = (entries: [string, string][]) => {
    const f = new FormData();
    for (const [k, v] of entries) f.append(k, v);
    return f;
  };

  test("a malformed __intent__ or __state__ is a 400, not an exception", async () => {
    for (const [name, value] of [
      ["__intent__", "{bad"],
      ["__state__", "{bad"],
      ["__intent__", '{"type":"explode","payload":{}}'],
      ["__intent__", '{"type":"insert","payload":{"name":"requests","index":100000}}'],
      ["__intent__", '{"type":"update","payload":{"name":"sizes","index":100000,"value":"1"}}'],
      ["__intent__", '{"type":"insert","payload":{"name":"email"}}'],
      ["__intent__", '{"type":"remove","payload":{"name":"__proto__.x","index":0}}'],
      ["__state__", '{"validated":{"a":"yes"}}'],
      ["__state__", "[[[[[[[[[[]]]]]]]]]]"],
    ]) {
      const r = await refusal(() =>
        parseSubmission(
          form([
            ["email", "a"],
            [name, value],
          ]),
          { schema },
        ),
      );
      expect(r.status, `${name}=${value}`).toBe(400);
    }
    const twice = form([
      ["email", "a"],
      ["__intent__", ""],
      ["__intent__", ""],
    ]);
    expect((await refusal(() => parseSubmission(twice, { schema }))).status).toBe(400);
  });

  test("Conform's own intents still work (the brand request rows' add and remove buttons)", () => {
    const inserted = parseSubmission(
      form([
        ["email", "a"],
        ["requests[0].brand_name", "X"],
        ["__intent__", '{"type":"insert","payload":{"name":"requests","defaultValue":{}}}'],
      ]),
      { schema },
    );
    expect(inserted.status).toBeUndefined();
    expect((inserted.payload.requests as unknown[]).length).toBe(2);
    const removed = parseSubmission(
      form([
        ["email", "a"],
        ["requests[0].brand_name", "X"],
        ["__intent__", '{"type":"remove","payload":{"name":"requests","index":0}}'],
        ["__state__", '{"validated":{"email":true}}'],
      ]),
      { schema },
    );
    expect(removed.payload.requests).toEqual([]);
    expect(removed.reply().state).toEqual({ validated: { email: true } });
    expect(parseSubmission(form([["email", "a"]]), { schema }).status).toBe("success");
  });
});

describe("NUL characters, taken out where the form is read and refused by parseSubmission", () => {
  const Schema = z.object({ body: z.string().min(1), name: z.string().optional() });

  test("urlencoded: the value without its NUL, the field named, the form refused with a message on the field and the form", async () => {
    const form = await readFormData(urlencoded("body=hello%00world&name=ok"));
    expect(form.get("body")).toBe("helloworld");
    expect(controlFields(form)).toEqual(["body"]);
    const submission = parseSubmission(form, { schema: Schema });
    expect(submission.status).toBe("error");
    const reply = submission.reply();
    expect(reply.error?.body).toEqual([CONTROL_FIELD_REFUSED]);
    expect(reply.error?.[""]).toEqual([CONTROL_REFUSED]);
    // the input comes back (without the NUL) for the form to show again
    expect(reply.initialValue).toMatchObject({ body: "helloworld", name: "ok" });
  });

  test("a form without a NUL is the form as read, parsed as before", async () => {
    const form = await readFormData(urlencoded("body=hello"));
    expect(controlFields(form)).toEqual([]);
    expect(parseSubmission(form, { schema: Schema }).status).toBe("success");
  });

  test("the schema's own errors stay beside the NUL's; a NUL in a field name or Conform's intent", async () => {
    const form = await readFormData(urlencoded("name=a%00b&bo%00dy="));
    expect(controlFields(form)).toEqual(["name", "body"]);
    const reply = parseSubmission(form, { schema: Schema }).reply();
    expect(reply.error?.name).toEqual([CONTROL_FIELD_REFUSED]);
    expect(reply.error?.body).toEqual([CONTROL_FIELD_REFUSED]);
    const intent = await readFormData(
      urlencoded(
        `body=x&__intent__=${encodeURIComponent('{"type":"validate","payload":{"name":"bo\u0000dy"}}')}`,
      ),
    );
    const s = parseSubmission(intent, { schema: Schema });
    expect(s.reply().error?.[""]).toEqual([CONTROL_REFUSED]);
  });

  test("multipart, in memory and through an upload handler: values and file names", async () => {
    const body = multipart([
      { name: "body", value: "a\u0000b" },
      { name: "file", value: "x,y", filename: "stock\u0000.csv" },
    ]);
    const type = "multipart/form-data; boundary=----b0undary";
    for (const opts of [{}, { uploadHandler: unstable_createMemoryUploadHandler() }]) {
      const form = await readFormData(post(body, type), opts);
      expect(form.get("body")).toBe("ab");
      const file = form.get("file") as File;
      expect(file.name).toBe("stock.csv");
      expect(await file.text()).toBe("x,y");
      expect(controlFields(form)).toEqual(["body", "file"]);
      expect(parseSubmission(form, { schema: Schema }).reply().error?.file).toEqual([
        CONTROL_FIELD_REFUSED,
      ]);
    }
  });

  test("refuseControl: a 400 with the message (a reader without Conform: the stock import API)", async () => {
    const r = await refusal(readFormData(urlencoded("name=a%00"), { refuseControl: true }));
    expect(r).toEqual({ status: 400, text: CONTROL_REFUSED });
    const bell = await refusal(readFormData(urlencoded("name=a%07"), { refuseControl: true }));
    expect(bell).toEqual({ status: 400, text: CONTROL_REFUSED });
    expect((await readFormData(urlencoded("name=a"), { refuseControl: true })).get("name")).toBe(
      "a",
    );
  });
});

describe("every C0 control character but tab, LF and CR, and DEL: refused the same way, in one place (ADR 0053)", () => {
  const Schema = z.object({ body: z.string(), name: z.string().optional() });
  const C0 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i));

  test.each(
    [...C0.filter((c) => !"\t\n\r".includes(c)), "\u007f"].map((c) => [c.charCodeAt(0), c]),
  )(
    "U+%i in a field: taken out, the field and the form refused with one message each",
    async (_code, c) => {
      const form = await readFormData(urlencoded(`body=${encodeURIComponent(`a${c}b`)}&name=ok`));
      expect(form.get("body")).toBe("ab");
      expect(controlFields(form)).toEqual(["body"]);
      const reply = parseSubmission(form, { schema: Schema }).reply();
      expect(reply.error?.body).toEqual([CONTROL_FIELD_REFUSED]);
      expect(reply.error?.[""]).toEqual([CONTROL_REFUSED]);
      expect(reply.error?.name).toBeUndefined();
    },
  );

  test("tab, line feed and carriage return are text: kept, the form parsed", async () => {
    const form = await readFormData(urlencoded(`body=${encodeURIComponent("one\r\n\ttwo")}`));
    expect(controlFields(form)).toEqual([]);
    const submission = parseSubmission(form, { schema: Schema });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value.body).toBe("one\r\n\ttwo");
  });

  test("C1 controls and the separators are left to the field's schema (domain/text.ts text())", async () => {
    const form = await readFormData(urlencoded(`body=${encodeURIComponent("a\u0085\u2028b")}`));
    expect(controlFields(form)).toEqual([]);
  });

  test("an escape in a file name and a field name (multipart)", async () => {
    const body = multipart([
      { name: "na\u001bme", value: "x" },
      { name: "file", value: "x,y", filename: "stock\u0007.csv" },
    ]);
    const form = await readFormData(post(body, "multipart/form-data; boundary=----b0undary"));
    expect((form.get("file") as File).name).toBe("stock.csv");
    expect(controlFields(form)).toEqual(["name", "file"]);
  });

  test("a setup form's free-text field (the store's city) refused through the pipeline", async () => {
    const form = await readFormData(urlencoded(`city=${encodeURIComponent("a\u0001b")}`));
    const reply = parseSubmission(form, { schema: RetailerStepSchema }).reply();
    expect(reply.error?.city).toEqual([CONTROL_FIELD_REFUSED]);
    expect(CONTROL_FIELD_REFUSED).toBe(CONTROL_CHARACTERS_MESSAGE);
  });
});
