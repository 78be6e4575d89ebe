import { readFileSync } from "node:fs";

/** Resident memory of process `pid` in bytes: `VmRSS` of /proc/<pid>/status. */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`process ${pid} reports no VmRSS (has it ended?)`);
  return Number(kib) * 1024;
}
