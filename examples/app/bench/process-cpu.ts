import { readdirSync, readFileSync } from "node:fs";

// The kernel counts CPU time in clock ticks of 1/100 s on Linux (sysconf(_SC_CLK_TCK)).
const MICROSECONDS_PER_TICK = 10_000;

/**
 * `[pid, parent pid, ticks]` of every process /proc shows, where ticks are its own user and
 * system time plus that of its children that ended (a server's exited backends, say).
 */
function processes(): [number, number, number][] {
  const rows: [number, number, number][] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name, which may hold spaces, closed by the last ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as [
        number,
        number,
        number,
        number,
      ];
      rows.push([Number(entry), Number(fields[1]), utime + stime + cutime + cstime]);
    } catch {
      // The process ended while we looked.
    }
  }
  return rows;
}

/**
 * CPU time, in microseconds, that `rootPid` and every process below it have used so far (user
 * and system, those that ended included): the app's cost whether it runs as one process or as
 * a cluster's workers, a database server's with its backends.
 * Resolution 10 ms; read it around runs of seconds.
 */
export function processTreeCpuMicros(rootPid: number): number {
  const all = processes();
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of all) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return (
    all.filter(([pid]) => tree.has(pid)).reduce((sum, [, , ticks]) => sum + ticks, 0) *
    MICROSECONDS_PER_TICK
  );
}

/** The first process below `rootPid` (itself included) whose command name is `name`. */
export function descendantNamed(rootPid: number, name: string): number | undefined {
  const all = processes();
  const tree = [rootPid];
  for (let index = 0; index < tree.length; index++) {
    const pid = tree[index]!;
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === name) return pid;
    } catch {
      // The process ended while we looked.
    }
    for (const [child, parent] of all) if (parent === pid) tree.push(child);
  }
  return undefined;
}
