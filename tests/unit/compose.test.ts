// docker-compose.yml cannot run on the development machine (no container engine): this test keeps it the
// topology `npm run prod` runs (scripts/prod.mjs, scripts/lib/prod-topology.mjs), both described by
// config/topology.mjs: the Temporal services and their commands, the environment the one Temporal config is
// rendered from, the schema steps, the namespace and search attributes, the Web UI, the app's commands and
// environment names; and the config files both mount (production.yaml, dynamicconfig.yaml) against that list.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { TRY_AGAIN_TEXT } from "../../app/components/errors";
import {
  APP_COMMANDS,
  APP_CONTAINER_ENV,
  APP_OWN_ENV,
  APP_PASSED_ENV,
  APP_PROCESS_ENV,
  TEMPORAL_SERVICES,
  namespaceSetupScript,
  schemaScript,
  sqlToolEnv,
  temporalPorts,
  temporalServerArgs,
  temporalServerEnv,
  temporalServiceEnv,
  temporalUiArgs,
  temporalUiEnv,
} from "../../config/topology.mjs";
import { ENGINE_DYNAMIC_CONFIG } from "../../config/temporal-engine.mjs";
import { VERSIONS } from "../../config/versions.mjs";
import { appEnv } from "../../scripts/lib/prod-topology.mjs";
import { readProdSettings } from "../../scripts/lib/prod-settings.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");

type Service = {
  image?: string;
  build?: unknown;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas: string | number };
  secrets?: { source: string; target: string }[];
  networks?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
};
const compose = parse(read("docker-compose.yml"), { merge: true }) as {
  services: Record<string, Service>;
  "x-app-env": Record<string, string>;
  "x-temporal-env": Record<string, string>;
  networks: Record<string, { internal?: boolean } | null>;
  secrets: Record<string, { file: string }>;
};
const services = compose.services;
const keys = (o: object | undefined) => Object.keys(o ?? {}).sort();
/** A folded `sh -c` script as one line. */
const script = (s: Service) => (s.command ?? []).join(" ").replace(/\s+/g, " ").trim();

/** The Temporal config as compose renders it (its values; the names are what matter). */
const composeDb = {
  host: "postgres",
  port: 5432,
  user: "postgres",
  password: "x",
  temporal: "temporal",
  visibility: "temporal_visibility",
};
const temporalEnv = temporalServerEnv({
  db: composeDb,
  bindIp: "0.0.0.0",
  broadcastAddress: "",
  frontendAddress: "temporal-frontend:7233",
  ports: temporalPorts(),
  httpPort: 7243,
  shards: 64,
  maxConns: { persistence: 10, visibility: 5 },
  logLevel: "warn",
});

describe("the Temporal server: four processes from one config", () => {
  test.each(TEMPORAL_SERVICES)(
    "temporal-%s runs `temporal-server start --service` with the config mounted",
    (svc) => {
      const s = services[`temporal-${svc}`];
      expect(s, `service temporal-${svc}`).toBeDefined();
      expect(s.command).toEqual(temporalServerArgs("/etc/temporal", svc));
      expect(s.entrypoint?.join(" ")).toMatch(/exec temporal-server/);
      expect(s.volumes).toContain("./config/temporal:/etc/temporal/config/temporal:ro");
      expect(s.build).toEqual({ context: ".", target: "temporal" });
    },
  );

  test("each process has the config's environment (the same names npm run prod sets) and its own metrics port", () => {
    const ports = temporalPorts();
    for (const svc of TEMPORAL_SERVICES) {
      const env = services[`temporal-${svc}`].environment ?? {};
      expect(keys(env), svc).toEqual(keys({ ...temporalEnv, ...temporalServiceEnv(svc, ports) }));
      expect(env.TEMPORAL_METRICS_PORT).toBe(String(ports[svc].metrics));
      expect(env[`TEMPORAL_${svc.toUpperCase()}_PORT`]).toBe(String(ports[svc].grpc));
    }
    const metrics = TEMPORAL_SERVICES.map(
      (svc) => services[`temporal-${svc}`].environment?.TEMPORAL_METRICS_PORT,
    );
    expect(new Set(metrics).size).toBe(4);
  });

  test("config/temporal/production.yaml reads exactly those names, with {{ env }} templating", () => {
    const yaml = read("config/temporal/production.yaml");
    expect(yaml.split("\n")[0]).toBe("# enable-template");
    expect(yaml).not.toMatch(/\.Env\.|\{ \{/);
    const used = new Set([...yaml.matchAll(/env "(\w+)"/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual(keys({ ...temporalEnv, TEMPORAL_METRICS_PORT: "" }));
  });

  test("the frontend starts alone, after the schema; the other three once it is healthy", () => {
    expect(services["temporal-frontend"].depends_on).toEqual({
      "temporal-schema": { condition: "service_completed_successfully" },
    });
    for (const svc of TEMPORAL_SERVICES.slice(1))
      expect(services[`temporal-${svc}`].depends_on).toEqual({
        "temporal-frontend": { condition: "service_healthy" },
      });
  });

  test("the dynamic config is the engine settings of every dev server (config/temporal-engine.mjs)", () => {
    const dynamic = parse(read("config/temporal/dynamicconfig.yaml")) as Record<
      string,
      { value: unknown }[]
    >;
    expect(Object.fromEntries(Object.entries(dynamic).map(([k, v]) => [k, v[0].value]))).toEqual(
      ENGINE_DYNAMIC_CONFIG,
    );
    expect(temporalEnv.TEMPORAL_DYNAMIC_CONFIG_FILE).toBe("config/temporal/dynamicconfig.yaml");
  });
});

describe("schema, namespace, search attributes, UI", () => {
  test("temporal-schema runs the schema tool's steps (postgres12), the connection from its environment", () => {
    const s = services["temporal-schema"];
    expect(s.entrypoint).toEqual(["sh", "-c"]);
    expect(script(s)).toBe(schemaScript(composeDb));
    expect(keys(s.environment)).toEqual(keys(sqlToolEnv(composeDb)));
    expect(s.environment?.SQL_PLUGIN).toBe("postgres12");
  });

  test("temporal-search-attributes creates the namespace and every search attribute", () => {
    expect(script(services["temporal-search-attributes"])).toBe(
      namespaceSetupScript("temporal-frontend:7233", "${TEMPORAL_NAMESPACE:-default}"),
    );
  });

  test("temporal-ui runs the UI server with config/temporal-ui, rendered from the same names as npm run prod's", () => {
    const s = services["temporal-ui"];
    expect(s.entrypoint).toEqual(["temporal-ui-server"]);
    expect(s.command).toEqual(temporalUiArgs("/etc/temporal"));
    const env = temporalUiEnv({ address: "a", ip: "i", port: 1, namespace: "n", appOrigin: "o" });
    expect(keys(s.environment)).toEqual(keys(env));
    const uiYaml = read("config/temporal-ui/production.yaml");
    expect(uiYaml.split("\n")[0]).toBe("# enable-template");
    expect(uiYaml).not.toMatch(/\{ \{/); // a YAML formatter's rewrite of {{ }}
    const used = [...uiYaml.matchAll(/env "(\w+)"/g)].map((m) => m[1]);
    expect([...new Set(used)].sort()).toEqual(keys(env));
  });

  test("the Dockerfile builds the versions the tools script builds (config/versions.mjs VERSIONS)", () => {
    const docker = read("Dockerfile");
    expect(docker).toContain(`ARG TEMPORAL_SERVER_VERSION=${VERSIONS.temporalServer}`);
    expect(docker).toContain(`ARG TEMPORAL_UI_VERSION=${VERSIONS.temporalUi}`);
    expect(docker).toContain(`ARG TEMPORAL_CLI_VERSION=${VERSIONS.temporal}`);
    expect(docker).toMatch(/AS temporal\n/);
  });
});

describe("the app: the same commands and environment names", () => {
  test("migrate, web and worker run the package scripts of config/topology.mjs APP_COMMANDS", () => {
    expect(services.migrate.command).toEqual(APP_COMMANDS.migrate);
    expect(services.web.command).toEqual(APP_COMMANDS.web);
    expect(services.worker.command).toEqual(APP_COMMANDS.worker);
    expect(services.web.deploy?.replicas).toBe("${WEB_PROCESSES:-2}");
    expect(services.worker.deploy?.replicas).toBe("${WORKER_PROCESSES:-2}");
  });

  test("x-app-env holds the names passed through, those the runner sets and the containers' own; each process adds its own ports", () => {
    const common = [...APP_PASSED_ENV, ...APP_PROCESS_ENV, ...APP_CONTAINER_ENV];
    expect(keys(compose["x-app-env"])).toEqual(common.sort());
    expect(keys(services.migrate.environment)).toEqual(keys(compose["x-app-env"]));
    for (const kind of ["web", "worker"] as const)
      expect(keys(services[kind].environment)).toEqual([...common, ...APP_OWN_ENV[kind]].sort());
  });

  test("every name the app reads is one domain/env.ts declares, or one of the process's signals", () => {
    const declared = [...read("domain/env.ts").matchAll(/^ {2}(\w+): z\./gm)].map((m) => m[1]);
    const signals = ["LOG_FORMAT", "METRICS_HOST", "METRICS_PORT", "HEALTH_PORT"];
    // NAME_FILE: NAME read from that file (domain/env.ts withFileVariables)
    const files = declared.map((name) => `${name}_FILE`);
    expect(declared.length).toBeGreaterThan(20);
    for (const name of [...APP_PASSED_ENV, ...APP_PROCESS_ENV, ...APP_CONTAINER_ENV])
      expect([...declared, ...files, ...signals], name).toContain(name);
  });

  test("npm run prod gives its app processes those names (and its local build directory)", () => {
    const { settings, problems } = readProdSettings({});
    expect(problems).toEqual([]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prod-env-"));
    try {
      const env: Record<string, string | undefined> = appEnv({
        settings,
        dataDir: dir,
        appUrl: "postgres://u:p@h:1/db",
        address: "127.0.0.1:7333",
        smtpUrl: null,
      });
      const allowed = new Set([...APP_PASSED_ENV, ...APP_PROCESS_ENV, "REMIX_BUILD_DIR"]);
      for (const k of Object.keys(env)) expect(allowed.has(k), k).toBe(true);
      for (const k of APP_PROCESS_ENV) expect(env[k], k).toBeDefined();
      expect(env.CARRIER_WEBHOOK_SECRET?.length).toBeGreaterThanOrEqual(16);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the proxy in front of the web replicas", () => {
  test("nginx, as rr-proxy under npm run prod, tries the next replica and answers the product's try-again page", () => {
    const conf = read("docker-compose.yml").split("proxy-conf:")[1] ?? "";
    expect(conf).toMatch(/proxy_next_upstream error timeout;/);
    expect(conf).toMatch(/error_page 502 504 = @try_again;/);
    expect(conf).toContain(TRY_AGAIN_TEXT);
    expect(read("scripts/lib/rr-proxy.mjs")).toContain(TRY_AGAIN_TEXT);
  });
});

describe("npm run prod's settings", () => {
  test("defaults: 2 web and 2 worker processes, ports of their own; bad values named", () => {
    const { settings } = readProdSettings({});
    expect(settings.WEB_PROCESSES).toBe(2);
    expect(settings.WORKER_PROCESSES).toBe(2);
    const all: [string, number][] = settings.ports.all;
    expect(new Set(all.map(([, p]) => p)).size).toBe(all.length);
    const bad = readProdSettings({
      WEB_PROCESSES: "0",
      DATABASE_URL: "mysql://x",
      TEMPORAL_LOG_LEVEL: "loud",
    });
    expect(bad.problems).toEqual([
      "WEB_PROCESSES=0: a positive integer is required",
      "DATABASE_URL: a postgres://user:password@host:port/database URL is required",
      "TEMPORAL_LOG_LEVEL=loud: one of debug, info, warn, error",
    ]);
    expect(readProdSettings({ PORT: "4000", TEMPORAL_UI_PORT: "4001" }).problems).toEqual([
      "TEMPORAL_UI_PORT and web 1 would both use port 4001",
    ]);
  });
});

describe("no default password; mutual TLS to and between the Temporal services", () => {
  const SECRETS_DIR = "/run/secrets";
  /** The files a service holds: /run/secrets/<target>. */
  const held = (s: Service) => (s.secrets ?? []).map((x) => `${SECRETS_DIR}/${x.target}`);
  /** A config template's TLS block (`{{- with env "TEMPORAL_TLS_DIR" }}` … `{{- end }}`) as compose renders it. */
  function tlsBlock(file: string): Record<string, unknown> {
    const m = read(file).match(/\{\{- with env "TEMPORAL_TLS_DIR" \}\}\n([\s\S]*?)\{\{- end \}\}/);
    expect(m, file).not.toBeNull();
    return parse(m![1].replaceAll("{{ . }}", SECRETS_DIR)) as Record<string, unknown>;
  }
  /** Every string in a parsed value (the file paths of a TLS block). */
  const strings = (v: unknown): string[] =>
    typeof v === "string"
      ? [v]
      : v && typeof v === "object"
        ? Object.values(v).flatMap(strings)
        : [];
  const temporalServices = TEMPORAL_SERVICES.map((svc) => `temporal-${svc}`);
  const appServices = ["migrate", "web", "worker", "deploy", "worker-previous"];

  test("POSTGRES_PASSWORD has no default: compose refuses to start without it, wherever it is used", () => {
    const text = read("docker-compose.yml");
    expect(text).not.toMatch(/PASSWORD[A-Z_]*:-/);
    const uses = [...text.matchAll(/\$\{POSTGRES_PASSWORD([^}]*)\}/g)].map((m) => m[1]);
    expect(uses.length).toBe(4); // PostgreSQL, the schema tool, the Temporal services, the app's DATABASE_URL
    for (const u of uses) expect(u).toMatch(/^:\?/);
  });

  test("PostgreSQL and the Temporal services are only on the internal network, none publishes a port", () => {
    expect(compose.networks.backend).toEqual({ internal: true });
    for (const name of ["postgres", "temporal-schema", ...temporalServices]) {
      expect(services[name].networks, name).toEqual(["backend"]);
      expect(services[name].ports, name).toBeUndefined();
    }
    for (const name of [...appServices, "temporal-ui"])
      expect(services[name].networks, name).toContain("backend");
  });

  test("the Temporal services serve and call with the certificates they hold; the frontend requires a client certificate", () => {
    expect(compose["x-temporal-env"].TEMPORAL_TLS_DIR).toBe(SECRETS_DIR);
    const tls = tlsBlock("config/temporal/production.yaml").tls as Record<
      string,
      { server?: { requireClientAuth?: boolean } }
    >;
    expect(keys(tls)).toEqual(["frontend", "internode", "systemWorker"]);
    expect(tls.frontend.server?.requireClientAuth).toBe(true);
    expect(tls.internode.server?.requireClientAuth).toBe(true);
    const files = strings(tls).filter((f) => f.startsWith(SECRETS_DIR));
    expect(files.length).toBeGreaterThan(5);
    for (const name of temporalServices)
      for (const f of files) expect(held(services[name]), `${name}: ${f}`).toContain(f);
    const health = services["temporal-frontend"].healthcheck?.test.join(" ") ?? "";
    for (const flag of ["--tls-ca-path", "--tls-cert-path", "--tls-key-path"]) {
      const f = health.match(new RegExp(`${flag} (\\S+)`))?.[1] ?? "";
      expect(held(services["temporal-frontend"]), flag).toContain(f);
    }
  });

  test("the UI, the app's processes and the CLI one-shot call the frontend with a client certificate they hold", () => {
    const ui = services["temporal-ui"];
    expect(ui.environment?.TEMPORAL_TLS_DIR).toBe(SECRETS_DIR);
    const uiTls = tlsBlock("config/temporal-ui/production.yaml").tls as Record<string, unknown>;
    expect(uiTls.enableHostVerification).toBe(true);
    for (const k of ["caFile", "certFile", "keyFile"])
      expect(held(ui), k).toContain(uiTls[k] as string);
    for (const name of appServices) {
      const env = services[name].environment ?? {};
      expect(env.TEMPORAL_TLS, name).toBe("true");
      for (const k of ["TEMPORAL_TLS_CA_FILE", "TEMPORAL_TLS_CERT_FILE", "TEMPORAL_TLS_KEY_FILE"])
        expect(held(services[name]), `${name} ${k}`).toContain(env[k]);
    }
    const cli = services["temporal-search-attributes"];
    for (const k of [
      "TEMPORAL_TLS_SERVER_CA_CERT_PATH",
      "TEMPORAL_TLS_CLIENT_CERT_PATH",
      "TEMPORAL_TLS_CLIENT_KEY_PATH",
    ])
      expect(held(cli), k).toContain(cli.environment?.[k]);
  });

  test("every secret is a file docs/operations.md issues into ./secrets/tls, each named by some service", () => {
    const issued = [...read("docs/operations.md").matchAll(/^issue (\w+)/gm)].map((m) => m[1]);
    expect(issued.length).toBe(5);
    const files = ["ca.pem", ...issued.flatMap((n) => [`${n}.pem`, `${n}.key`])].sort();
    expect(
      Object.values(compose.secrets)
        .map((x) => x.file)
        .sort(),
    ).toEqual(files.map((f) => `./secrets/tls/${f}`));
    const named = new Set(
      Object.values(services).flatMap((x) => (x.secrets ?? []).map((y) => y.source)),
    );
    expect([...named].sort()).toEqual(keys(compose.secrets));
  });
});
