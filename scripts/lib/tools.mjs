// Installs and locates everything the project needs outside node_modules, in a per-user cache
// keyed by version (see paths.mjs). Idempotent; cheap when everything is present (only stat calls).
// Node built-ins only: this runs before `npm ci`.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fmtMs, info, step, warn } from "./log.mjs";
import { acquireLock, idle, isPortOpen, run, runOrThrow, sleep, which } from "./proc.mjs";
import { VERSIONS } from "../../config/versions.mjs";
import { CACHE_DIR, ROOT, TOOLS_DIR } from "./paths.mjs";

const isRoot = process.getuid?.() === 0;
const exists = (p) => fs.existsSync(p);

export const toolPaths = {
  temporalCache: path.join(TOOLS_DIR, `temporal-${VERSIONS.temporal}`, "temporal"),
  stripeMock: path.join(TOOLS_DIR, `stripe-mock-${VERSIONS.stripeMock}`, "stripe-mock"),
  mailpit: path.join(TOOLS_DIR, `mailpit-${VERSIONS.mailpit}`, "mailpit"),
  testServerDir: path.join(TOOLS_DIR, `test-server-${VERSIONS.testServer}`),
  testServer: path.join(TOOLS_DIR, `test-server-${VERSIONS.testServer}`, "temporal-test-server"),
  temporalUi: path.join(TOOLS_DIR, `temporal-ui-${VERSIONS.temporalUi}`, "temporal-ui-server"),
  chromium: process.env.CHROMIUM_PATH || null,
};

/** What each ensure* did, for the summary printed by `npm run tools`. */
export const actions = [];
const did = (what) => {
  actions.push(what);
};

// ---------------------------------------------------------------- node_modules

/** The package.json scripts npm runs during `npm ci` (the rest change nothing in node_modules). */
const INSTALL_HOOKS = ["preinstall", "install", "postinstall", "prepare"];

function installHash() {
  const h = crypto.createHash("sha256");
  const lock = path.join(ROOT, "package-lock.json");
  if (exists(lock)) h.update(fs.readFileSync(lock));
  // package.json without the scripts that do not run at install: adding `npm run` lines reinstalls nothing.
  const pkgPath = path.join(ROOT, "package.json");
  if (exists(pkgPath)) {
    const pkg = JSON.parse(fs.readFileSync(pkgPath, "utf8"));
    const scripts = pkg.scripts ?? {};
    pkg.scripts = Object.fromEntries(
      INSTALL_HOOKS.filter((k) => k in scripts).map((k) => [k, scripts[k]]),
    );
    h.update(JSON.stringify(pkg));
  }
  // The dependency patches that npm ci's postinstall applies (patch-package, ADR 0022): a changed patch reinstalls.
  const patches = path.join(ROOT, "scripts", "patches");
  if (exists(patches))
    for (const f of fs.readdirSync(patches).sort())
      h.update(f).update(fs.readFileSync(path.join(patches, f)));
  h.update(process.version.split(".")[0]); // native modules follow the Node major
  return h.digest("hex");
}

const STAMP = path.join(ROOT, "node_modules", ".install-stamp");

export function nodeModulesFresh() {
  try {
    return fs.readFileSync(STAMP, "utf8").trim() === installHash();
  } catch {
    return false;
  }
}

/**
 * `npm ci` when node_modules is missing or older than package-lock.json / package.json
 * (node_modules/.install-stamp holds a hash of both, package.json without its non-install scripts, and of scripts/patches/). Always `npm ci`: the lock file is the one truth
 * on every machine. A lock file out of sync with package.json (a dependency added without updating it,
 * or other platforms' optional packages missing) is an error to fix in the repository, not something to
 * paper over with `npm install` on one machine (see the check in tests/unit/lockfile.test.ts).
 */
export async function ensureNodeModules() {
  if (nodeModulesFresh()) return;
  // Two runs that find node_modules stale at once (a test run and a bench) must not run `npm ci` into the same
  // tree together: the second waits for the first and then finds it fresh.
  fs.mkdirSync(path.join(ROOT, ".data"), { recursive: true });
  const release = await acquireLock(path.join(ROOT, ".data", "npm-ci.lock"), {
    what: "npm ci (another run)",
    log: info,
  });
  try {
    if (!nodeModulesFresh() && !(await restoreNodeModules())) {
      await npmCi();
      await keepNodeModules();
    }
  } finally {
    release();
  }
}

/**
 * The per-user copy of what `npm ci` installed, one per install hash (the lock file, package.json's install
 * part, the patches, the Node major), beside the tools: a fresh clone with the same lock file takes it instead of
 * running `npm ci` again (half a minute). The clone's node_modules is hard links to the copy's files, as pnpm's
 * store does (docs/decisions/0060-node-modules-hard-linked-from-the-per-user-copy.md): a real copy of its 40,000
 * files and 800 MB took 9 to 25 s at the start of every clean-clone run. What a clone does to its node_modules
 * (npm ci, new files, a removed tree) does not reach the copy; a file edited in place inside node_modules would.
 * Where links cannot be made (another file system), the files are copied. The two newest copies are kept.
 */
const MODULES_CACHE = path.join(CACHE_DIR, "node_modules");
const KEPT_MODULE_COPIES = 2;

async function restoreNodeModules() {
  const cached = path.join(MODULES_CACHE, installHash());
  if (!exists(path.join(cached, ".install-stamp"))) return false;
  const t0 = Date.now();
  step("node_modules from the per-user copy of this lock file's install");
  fs.rmSync(path.join(ROOT, "node_modules"), { recursive: true, force: true });
  let r = await run("cp", ["-al", cached, path.join(ROOT, "node_modules")], { quiet: true });
  if (r.code !== 0) {
    fs.rmSync(path.join(ROOT, "node_modules"), { recursive: true, force: true });
    r = await run("cp", ["-a", cached, path.join(ROOT, "node_modules")], { quiet: true });
  }
  if (r.code !== 0 || !nodeModulesFresh()) {
    warn(`copying ${cached} failed (exit ${r.code}); running npm ci instead`);
    fs.rmSync(path.join(ROOT, "node_modules"), { recursive: true, force: true });
    return false;
  }
  fs.utimesSync(cached, new Date(), new Date());
  did(`node_modules linked from the cache (${fmtMs(Date.now() - t0)})`);
  return true;
}

async function keepNodeModules() {
  const hash = installHash();
  const tmp = path.join(MODULES_CACHE, `.tmp-${process.pid}`);
  try {
    fs.mkdirSync(MODULES_CACHE, { recursive: true });
    fs.rmSync(tmp, { recursive: true, force: true });
    const r = await run("cp", ["-a", path.join(ROOT, "node_modules"), tmp], { quiet: true });
    if (r.code !== 0) throw new Error(`cp exited with ${r.code}`);
    fs.rmSync(path.join(MODULES_CACHE, hash), { recursive: true, force: true });
    fs.renameSync(tmp, path.join(MODULES_CACHE, hash));
    const copies = fs
      .readdirSync(MODULES_CACHE)
      .filter((n) => !n.startsWith("."))
      .map((n) => ({ n, t: fs.statSync(path.join(MODULES_CACHE, n)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const old of copies.slice(KEPT_MODULE_COPIES))
      fs.rmSync(path.join(MODULES_CACHE, old.n), { recursive: true, force: true });
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    warn(`node_modules not kept for the next clone: ${e.message}`);
  }
}

async function npmCi() {
  if (!exists(path.join(ROOT, "package-lock.json"))) {
    throw new Error(
      "package-lock.json is missing: run `npm install --package-lock-only` and commit package-lock.json",
    );
  }
  const hasModules = exists(path.join(ROOT, "node_modules", ".package-lock.json"));
  step(`npm ci (node_modules ${hasModules ? "out of date" : "missing"})`);
  const t0 = Date.now();
  const r = await run("npm", ["ci", "--no-audit", "--no-fund"], {
    env: { npm_config_update_notifier: "false" },
    quiet: true,
  });
  const lines = r.output.split("\n");
  if (r.code !== 0) {
    const outOfSync = /in sync|from lock file|Invalid: lock file/.test(r.output);
    // The reasons only (npm prints its usage text after them).
    const reason = outOfSync
      ? /^npm error (`npm ci`|Missing:|Invalid:)/
      : /^npm error (?!code\b)\S/;
    const errors = lines.filter((l) => reason.test(l)).slice(0, 15);
    throw new Error(
      outOfSync
        ? `npm ci refused package-lock.json: it is out of sync with package.json.\n${errors.join("\n")}\n` +
          "Fix it in the repository: run `npm install --package-lock-only` (npm 11) and commit package-lock.json; " +
          "`npm test -- unit --files lockfile` checks it."
        : `npm ci failed (exit ${r.code}):\n${(errors.length ? errors : lines.slice(-15)).join("\n")}`,
    );
  }
  process.stdout.write(lines.filter((l) => !/^npm warn/.test(l)).join("\n"));
  fs.writeFileSync(STAMP, installHash() + "\n");
  did(`npm ci (${fmtMs(Date.now() - t0)})`);
}

// ---------------------------------------------------------------- Go tools

function goBinary() {
  return which("go") || (exists("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : null);
}

/** `go install module@version` into `dest` (directory), atomically, under a lock. */
async function goInstall(modulePath, version, dest, binName) {
  const go = goBinary();
  if (!go)
    throw new Error(
      `Go is required to build ${binName} (${modulePath}@${version}); install Go or put ${binName} on PATH.`,
    );
  fs.mkdirSync(TOOLS_DIR, { recursive: true });
  const release = await acquireLock(`${dest}.lock`, { what: `${binName} build`, log: info });
  try {
    const target = path.join(dest, binName);
    if (exists(target)) return target; // built by whoever held the lock
    const tmp = `${dest}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    step(`building ${binName} ${version} with go install (several minutes the first time)`);
    const t0 = Date.now();
    await runOrThrow(go, ["install", `${modulePath}@v${version}`], {
      prefix: "go",
      env: {
        GOBIN: tmp,
        GOFLAGS: [process.env.GOFLAGS, "-buildvcs=false"].filter(Boolean).join(" "),
      },
    });
    fs.mkdirSync(dest, { recursive: true });
    fs.renameSync(path.join(tmp, binName), target);
    fs.rmSync(tmp, { recursive: true, force: true });
    did(`built ${binName} ${version} (${fmtMs(Date.now() - t0)})`);
    return target;
  } finally {
    release();
  }
}

/** Temporal CLI: one already on PATH wins, else the cached build, else `go install`. */
export async function ensureTemporal() {
  const onPath = process.env.TEMPORAL_CLI_PATH || which("temporal");
  if (onPath) return onPath;
  if (exists(toolPaths.temporalCache)) return toolPaths.temporalCache;
  return goInstall(
    "github.com/temporalio/cli/cmd/temporal",
    VERSIONS.temporal,
    path.dirname(toolPaths.temporalCache),
    "temporal",
  );
}

/** Pulls `module version` out of a Go binary's embedded build info (no Go toolchain needed). */
function goModuleVersionOf(binPath, modulePath) {
  try {
    const fd = fs.openSync(binPath, "r");
    const size = fs.fstatSync(fd).size;
    const chunk = Buffer.alloc(Math.min(size, 64 << 20));
    fs.readSync(fd, chunk, 0, chunk.length, 0);
    fs.closeSync(fd);
    const m = chunk
      .toString("latin1")
      .match(new RegExp(`mod\\t${modulePath.replace(/[./]/g, "\\$&")}\\t(v[^\\t\\n]+)`));
    return m ? m[1] : null;
  } catch {
    return null;
  }
}

export async function ensureStripeMock() {
  if (exists(toolPaths.stripeMock)) return toolPaths.stripeMock;
  // Adopt an unversioned build from an earlier layout (tools/stripe-mock/stripe-mock) if it is the right version.
  const legacy = path.join(TOOLS_DIR, "stripe-mock", "stripe-mock");
  if (
    exists(legacy) &&
    goModuleVersionOf(legacy, "github.com/stripe/stripe-mock") === `v${VERSIONS.stripeMock}`
  ) {
    fs.mkdirSync(path.dirname(toolPaths.stripeMock), { recursive: true });
    fs.copyFileSync(legacy, toolPaths.stripeMock);
    fs.chmodSync(toolPaths.stripeMock, 0o755);
    did(`stripe-mock ${VERSIONS.stripeMock}: adopted ${legacy}`);
    return toolPaths.stripeMock;
  }
  return goInstall(
    "github.com/stripe/stripe-mock",
    VERSIONS.stripeMock,
    path.dirname(toolPaths.stripeMock),
    "stripe-mock",
  );
}

// ---------------------------------------------------------------- Mailpit (mail catcher of npm run dev)

const MAILPIT_MODULE = "github.com/axllent/mailpit";

/**
 * Mailpit (SMTP server + web UI that catches every message): one on PATH (or MAILPIT_PATH) wins, else the
 * cached build, else a build from the Go module proxy. Its web UI's JavaScript is not in the Go module
 * (upstream builds it with esbuild before releasing), so the build is: the module's source from the
 * proxy, `npm ci` + esbuild of the UI from its own package-lock.json (npm registry), then `go build`.
 * When the UI step fails the binary is built anyway: SMTP and the API work, the UI page stays blank.
 */
export async function ensureMailpit() {
  const onPath = process.env.MAILPIT_PATH || which("mailpit");
  if (onPath) return onPath;
  if (exists(toolPaths.mailpit)) return toolPaths.mailpit;
  const go = goBinary();
  const version = `v${VERSIONS.mailpit}`;
  if (!go)
    throw new Error(
      `Go is required to build Mailpit (${MAILPIT_MODULE}@${version}); install Go or put mailpit on PATH.`,
    );
  const dest = path.dirname(toolPaths.mailpit);
  fs.mkdirSync(TOOLS_DIR, { recursive: true });
  const release = await acquireLock(`${dest}.lock`, { what: "mailpit build", log: info });
  try {
    if (exists(toolPaths.mailpit)) return toolPaths.mailpit; // built by whoever held the lock
    step(
      `building Mailpit ${version} (Go module proxy + its UI from npm; a few minutes the first time)`,
    );
    const t0 = Date.now();
    const env = { GOFLAGS: [process.env.GOFLAGS, "-buildvcs=false"].filter(Boolean).join(" ") };
    const dl = await runOrThrow(go, ["mod", "download", "-json", `${MAILPIT_MODULE}@${version}`], {
      env,
      quiet: true,
    });
    const moduleDir = JSON.parse(dl.output.slice(dl.output.indexOf("{"))).Dir;
    const src = `${dest}.src-${process.pid}`;
    fs.rmSync(src, { recursive: true, force: true });
    fs.cpSync(moduleDir, src, { recursive: true });
    await runOrThrow("chmod", ["-R", "u+w", src], { quiet: true }); // the module cache is read-only
    let ui = "with its web UI";
    try {
      const npmEnv = { npm_config_update_notifier: "false" };
      await runOrThrow("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], {
        cwd: src,
        env: npmEnv,
        quiet: true,
      });
      await runOrThrow(process.execPath, ["esbuild.config.mjs"], {
        cwd: src,
        env: { MINIFY: "true" },
        quiet: true,
      });
    } catch (e) {
      ui = "WITHOUT its web UI (SMTP and API only)";
      warn(
        `Mailpit's web UI did not build (${e.message.split("\n")[0].slice(0, 160)}); building the server without it`,
      );
    }
    const tmpBin = path.join(src, "mailpit.bin");
    await runOrThrow(
      go,
      [
        "build",
        "-trimpath",
        "-ldflags",
        `-s -w -X ${MAILPIT_MODULE}/config.Version=${version}`,
        "-o",
        tmpBin,
        ".",
      ],
      {
        cwd: src,
        env,
        prefix: "go",
      },
    );
    fs.mkdirSync(dest, { recursive: true });
    fs.renameSync(tmpBin, toolPaths.mailpit);
    fs.rmSync(src, { recursive: true, force: true });
    did(`built Mailpit ${version} ${ui} (${fmtMs(Date.now() - t0)})`);
    return toolPaths.mailpit;
  } finally {
    release();
  }
}

// ---------------------------------------------------------------- Java time-skipping test server

const TS_MAIN = "io.temporal.testserver.TestServer";
const JVM_FLAGS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-XX:MaxRAM=1g"];

function javaBinary() {
  if (process.env.JAVA_HOME && exists(path.join(process.env.JAVA_HOME, "bin", "java")))
    return path.join(process.env.JAVA_HOME, "bin", "java");
  return which("java");
}

function testServerComplete() {
  const dir = toolPaths.testServerDir;
  return (
    exists(path.join(dir, ".complete")) &&
    exists(toolPaths.testServer) &&
    exists(path.join(dir, "ts.jsa"))
  );
}

/**
 * The Java time-skipping test server (Maven artifact io.temporal:temporal-test-server), with a
 * wrapper script usable as @temporalio/testing's `existing-path` executable and a class-data-sharing
 * archive (ts.jsa) that roughly halves the JVM start time.
 */
export async function ensureTestServer() {
  if (testServerComplete()) return toolPaths.testServer;
  const java = javaBinary();
  const mvn = which("mvn");
  if (!java || !mvn)
    throw new Error(
      "Java 17+ and Maven are required for the Temporal time-skipping test server (apt-get install openjdk-17-jre-headless maven).",
    );
  const dir = toolPaths.testServerDir;
  fs.mkdirSync(TOOLS_DIR, { recursive: true });
  const release = await acquireLock(`${dir}.lock`, { what: "test-server install", log: info });
  try {
    if (testServerComplete()) return toolPaths.testServer;
    const t0 = Date.now();
    step(`installing Temporal time-skipping test server ${VERSIONS.testServer} (Maven)`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, "lib"), { recursive: true });
    const cpFile = path.join(dir, "maven-classpath.txt");
    await runOrThrow(
      mvn,
      [
        "-q",
        "-B",
        "-f",
        path.join(ROOT, "tools", "test-server", "pom.xml"),
        "dependency:build-classpath",
        `-Dmdep.outputFile=${cpFile}`,
        `-Dtemporal.test.server.version=${VERSIONS.testServer}`,
      ],
      { prefix: "mvn" },
    );
    // Copy the jars next to the wrapper so the cache entry does not depend on ~/.m2 staying put.
    const jars = fs.readFileSync(cpFile, "utf8").trim().split(path.delimiter).filter(Boolean);
    const local = jars.map((jar) => {
      const dest = path.join(dir, "lib", path.basename(jar));
      fs.copyFileSync(jar, dest);
      return dest;
    });
    const classpath = local.join(path.delimiter);
    const jsa = path.join(dir, "ts.jsa");
    const wrapper = toolPaths.testServer;
    fs.writeFileSync(
      wrapper,
      [
        "#!/bin/sh",
        `# Temporal time-skipping test server ${VERSIONS.testServer} (generated by scripts/lib/tools.mjs).`,
        "# Usage: temporal-test-server <port> [extra args]",
        `exec "${java}" ${JVM_FLAGS.join(" ")} -Xshare:auto -XX:SharedArchiveFile="${jsa}" -cp "${classpath}" ${TS_MAIN} "$@"`,
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    // Class-data-sharing archive: start the server once with ArchiveClassesAtExit and stop it.
    step("creating class-data-sharing archive for the test server");
    const port = 17000 + Math.floor(Math.random() * 2000);
    const child = spawn(
      java,
      [...JVM_FLAGS, `-XX:ArchiveClassesAtExit=${jsa}`, "-cp", classpath, TS_MAIN, String(port)],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise((r) => child.on("close", r));
    const deadline = Date.now() + 120_000;
    while (!(await isPortOpen(port))) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`test server did not start:\n${out}`);
      await sleep(200);
    }
    await sleep(500);
    child.kill("SIGTERM");
    await Promise.race([exited, idle(60_000)]);
    if (!exists(jsa))
      warn(
        `class-data-sharing archive was not written (start will be slower):\n${out.slice(-2000)}`,
      );
    fs.writeFileSync(path.join(dir, "classpath.txt"), classpath + "\n");
    if (!exists(jsa)) fs.writeFileSync(jsa, ""); // -Xshare:auto ignores an unusable archive
    fs.writeFileSync(path.join(dir, ".complete"), new Date().toISOString() + "\n");
    did(`installed test server ${VERSIONS.testServer} + CDS archive (${fmtMs(Date.now() - t0)})`);
    return wrapper;
  } finally {
    release();
  }
}

/** Starts the wrapper on a free port and measures the time until it accepts connections. */
export async function measureTestServerStart(wrapper = toolPaths.testServer) {
  const port = 19000 + Math.floor(Math.random() * 2000);
  const t0 = Date.now();
  const child = spawn(wrapper, [String(port)], { stdio: "ignore" });
  try {
    while (!(await isPortOpen(port, "127.0.0.1", 200))) {
      if (child.exitCode !== null) throw new Error("test server exited during start");
      if (Date.now() - t0 > 30_000) throw new Error("test server did not start within 30 s");
      await sleep(50);
    }
    return Date.now() - t0;
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.on("close", r)));
  }
}

// ---------------------------------------------------------------- Debian packages

async function aptInstall(packages) {
  if (!isRoot || !which("apt-get")) {
    throw new Error(
      `missing ${packages.join(", ")}: install them (e.g. sudo apt-get install -y ${packages.join(" ")})`,
    );
  }
  step(`apt-get install ${packages.join(" ")}`);
  const t0 = Date.now();
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  await runOrThrow("apt-get", ["update", "-q"], { prefix: "apt", env });
  await runOrThrow("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...packages], {
    prefix: "apt",
    env,
  });
  did(`apt-get install ${packages.join(" ")} (${fmtMs(Date.now() - t0)})`);
}

/** Debian's chromium-headless-shell binary (its /usr/bin entry is a shell script that does not exec it, so a kill would miss it). */
export const HEADLESS_SHELL_PATHS = ["/usr/lib/chromium/chromium-headless-shell"];

/**
 * Debian's Chromium headless shell (browser tests): the same Chromium release as the `chromium` package, built
 * as the old headless mode, without the full browser. For the same e2e files it spent half the CPU of the full
 * browser (docs/performance.md "Test command"). CHROMIUM_PATH overrides it.
 */
export async function ensureChromium() {
  if (toolPaths.chromium) return toolPaths.chromium;
  const found = () => HEADLESS_SHELL_PATHS.find(exists);
  if (!found()) await aptInstall(["chromium-headless-shell"]);
  const bin = found();
  if (!bin)
    throw new Error(
      `chromium-headless-shell is installed but ${HEADLESS_SHELL_PATHS.join(", ")} does not exist`,
    );
  return bin;
}

/** Debian's poppler-utils: pdftotext, which the unit and browser suites use to read packing slips and labels. */
export async function ensurePoppler() {
  if (!which("pdftotext")) await aptInstall(["poppler-utils"]);
  return which("pdftotext");
}

// ---------------------------------------------------------------- all together

export const ALL_TOOLS = [
  "temporal",
  "testServer",
  "stripeMock",
  "mailpit",
  "chromium",
  "poppler",
  "temporalUi",
];
/** What `npm run prod` needs besides the dev tools (`npm run tools -- --prod`). */
export const PROD_TOOLS = ["temporal", "mailpit", "temporalServer", "temporalUi"];

/** Ensures the requested tools (default: all) and returns their paths. */
export async function ensureTools(which_ = ALL_TOOLS) {
  const want = new Set(which_);
  const out = {};
  if (want.has("temporal")) out.temporal = await ensureTemporal();
  if (want.has("stripeMock")) out.stripeMock = await ensureStripeMock();
  if (want.has("mailpit")) out.mailpit = await ensureMailpit();
  if (want.has("testServer")) out.testServer = await ensureTestServer();
  if (want.has("chromium")) out.chromium = await ensureChromium();
  if (want.has("poppler")) out.poppler = await ensurePoppler();
  if (want.has("temporalServer")) Object.assign(out, await ensureTemporalServer());
  if (want.has("temporalUi")) out.temporalUi = await ensureTemporalUi();
  return out;
}

export { CACHE_DIR, TOOLS_DIR, isRoot };

// ---------------------------------------------------------------- Temporal server (npm run prod)

/**
 * `go install` of several main packages of one module version into `dest`, each renamed (`go install` names a
 * binary after its package's folder: cmd/server → server); atomically, under a lock; the paths by name.
 */
async function goInstallAll(version, dest, pkgs, what) {
  const target = (p) => path.join(dest, p.as);
  if (pkgs.every((p) => exists(target(p))))
    return Object.fromEntries(pkgs.map((p) => [p.as, target(p)]));
  const go = goBinary();
  if (!go) throw new Error(`Go is required to build ${what} ${version}; install Go.`);
  fs.mkdirSync(TOOLS_DIR, { recursive: true });
  const release = await acquireLock(`${dest}.lock`, { what: `${what} build`, log: info });
  try {
    if (!pkgs.every((p) => exists(target(p)))) {
      const tmp = `${dest}.tmp-${process.pid}`;
      fs.rmSync(tmp, { recursive: true, force: true });
      fs.mkdirSync(tmp, { recursive: true });
      step(`building ${what} ${version} with go install (a few minutes the first time)`);
      const t0 = Date.now();
      await runOrThrow(go, ["install", ...pkgs.map((p) => `${p.pkg}@v${version}`)], {
        prefix: "go",
        env: {
          GOBIN: tmp,
          GOFLAGS: [process.env.GOFLAGS, "-buildvcs=false"].filter(Boolean).join(" "),
        },
      });
      fs.mkdirSync(dest, { recursive: true });
      for (const p of pkgs) fs.renameSync(path.join(tmp, path.basename(p.pkg)), target(p));
      fs.rmSync(tmp, { recursive: true, force: true });
      did(`built ${what} ${version} (${fmtMs(Date.now() - t0)})`);
    }
    return Object.fromEntries(pkgs.map((p) => [p.as, target(p)]));
  } finally {
    release();
  }
}

export const TEMPORAL_SERVER_PACKAGES = Object.freeze([
  { pkg: "go.temporal.io/server/cmd/server", as: "temporal-server" },
  { pkg: "go.temporal.io/server/cmd/tools/sql", as: "temporal-sql-tool" },
]);
export const TEMPORAL_UI_PACKAGE = Object.freeze({
  pkg: "github.com/temporalio/ui-server/v2/cmd/server",
  as: "temporal-ui-server",
});

/**
 * The Temporal server (`temporal-server`, each service a process) and its SQL schema tool (`temporal-sql-tool`),
 * built from the Go module proxy and cached per version: { server, sqlTool }.
 */
export async function ensureTemporalServer() {
  const dest = path.join(TOOLS_DIR, `temporal-server-${VERSIONS.temporalServer}`);
  const bins = await goInstallAll(
    VERSIONS.temporalServer,
    dest,
    TEMPORAL_SERVER_PACKAGES,
    "the Temporal server",
  );
  return { server: bins["temporal-server"], sqlTool: bins["temporal-sql-tool"] };
}

/**
 * The Temporal Web UI server (its assets embedded in the Go module), cached per version: `npm run prod`'s UI, and
 * the one tests/e2e/codec-order-input.test.ts starts in front of the e2e suite's Temporal.
 */
export async function ensureTemporalUi() {
  const bins = await goInstallAll(
    VERSIONS.temporalUi,
    path.dirname(toolPaths.temporalUi),
    [TEMPORAL_UI_PACKAGE],
    "the Temporal Web UI",
  );
  return bins["temporal-ui-server"];
}
