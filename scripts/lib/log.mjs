// Small console helpers (Node built-ins only).
const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (s) => (useColor ? `\x1b[${code}m${s}\x1b[0m` : String(s));
export const c = {
  bold: paint(1),
  dim: paint(2),
  red: paint(31),
  green: paint(32),
  yellow: paint(33),
  blue: paint(34),
  magenta: paint(35),
  cyan: paint(36),
};

const palette = [c.cyan, c.magenta, c.blue, c.yellow, c.green];
const assigned = new Map();
export function colorFor(name) {
  if (!assigned.has(name)) assigned.set(name, palette[assigned.size % palette.length]);
  return assigned.get(name);
}

export function step(msg) {
  console.log(`${c.bold("›")} ${msg}`);
}
export function info(msg) {
  console.log(`  ${msg}`);
}
export function warn(msg) {
  console.log(`${c.yellow("!")} ${msg}`);
}
export function fail(msg) {
  console.error(`${c.red("✗")} ${msg}`);
}

/** Returns a function that writes each complete line of a stream prefixed with `[name]`. */
export function linePrefixer(name, out = process.stdout, filter) {
  const tag = colorFor(name)(`[${name}]`.padEnd(11));
  let buf = "";
  const write = (line) => {
    if (filter && !filter(line)) return;
    out.write(`${tag} ${line}\n`);
  };
  return {
    push(chunk) {
      buf += chunk.toString("utf8");
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        write(buf.slice(0, i).replace(/\r$/, ""));
        buf = buf.slice(i + 1);
      }
    },
    flush() {
      if (buf) write(buf);
      buf = "";
    },
  };
}

export function fmtMs(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
