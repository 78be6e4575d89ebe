import { readFileSync } from "node:fs";

// The kernel counts CPU time in clock ticks of 1/100 s on Linux (sysconf(_SC_CLK_TCK)).
const MICROSECONDS_PER_TICK = 10_000;

/** CPU time a process has used so far, in microseconds: in user space, and in the kernel. */
export interface CpuSplit {
  readonly user: number;
  readonly system: number;
}

/**
 * The user and system CPU time of process `pid` alone (not its children), from
 * `/proc/<pid>/stat`: where a change moved work, between the app's code and its system calls.
 * Resolution 10 ms; read it around runs of seconds.
 */
export function processCpuSplit(pid: number): CpuSplit {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which may hold spaces, closed by the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    user: Number(fields[11]) * MICROSECONDS_PER_TICK,
    system: Number(fields[12]) * MICROSECONDS_PER_TICK,
  };
}
