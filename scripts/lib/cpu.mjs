// CPU time from /proc (Linux) for the bench scripts: of one process, of a process tree, of the whole box.
// Node built-ins only.
import fs from "node:fs";

/** One clock tick of /proc/<pid>/stat (USER_HZ = 100), ms. */
export const TICK_MS = 1000 / 100;

/** A process's parent and CPU ticks (its own utime, stime; its reaped children's cutime, cstime); null when gone. */
export function readStat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = s.slice(s.lastIndexOf(")") + 2).split(" ");
    // fields after the command: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17)
    return {
      ppid: Number(rest[1]),
      utime: Number(rest[11]),
      stime: Number(rest[12]),
      cutime: Number(rest[13]),
      cstime: Number(rest[14]),
    };
  } catch {
    return null;
  }
}

/** CPU ms (utime + stime) of one process; 0 when it is gone or not given. */
export function processCpuMs(pid) {
  const s = pid ? readStat(pid) : null;
  return s ? (s.utime + s.stime) * TICK_MS : 0;
}

/**
 * CPU ms of a process and every descendant, each with the children it reaped (Postgres forks a backend per
 * connection; the postmaster's reaped children count the backends that ended).
 */
export function treeCpuMs(rootPid) {
  const stats = new Map();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    const s = readStat(Number(d));
    if (s) stats.set(Number(d), s);
  }
  const within = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = stats.get(p)?.ppid ?? 0, hops++)
      if (p === rootPid) return true;
    return false;
  };
  let ms = 0;
  for (const [pid, s] of stats)
    if (within(pid)) ms += (s.utime + s.stime + s.cutime + s.cstime) * TICK_MS;
  return ms;
}

/** Busy time of every core of the box since it started (user, nice, system, irq, softirq, steal), ms. */
export function boxBusyMs() {
  const stat = fs
    .readFileSync("/proc/stat", "utf8")
    .split("\n")[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // user nice system idle iowait irq softirq steal
  return (stat[0] + stat[1] + stat[2] + stat[5] + stat[6] + stat[7]) * TICK_MS;
}

/**
 * CPU ms used so far by each named part: a list of pids (each process alone), `{ tree: pid }` (the process with
 * its descendants, treeCpuMs) or null (not known: null); plus `bench` (this process) and `box` (every core).
 * Two snapshots subtracted give what each part used in between.
 */
export function cpuSnapshot(parts) {
  const out = {};
  for (const [name, part] of Object.entries(parts)) {
    if (part === null) out[name] = null;
    else if (Array.isArray(part)) out[name] = part.reduce((a, pid) => a + processCpuMs(pid), 0);
    else out[name] = treeCpuMs(part.tree);
  }
  const usage = process.cpuUsage();
  return { ...out, bench: (usage.user + usage.system) / 1000, box: boxBusyMs() };
}
