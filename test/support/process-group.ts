import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

/**
 * A command a test started in a process group of its own, with everything it printed so far.
 * Whatever the command starts in turn (a cluster's workers, npm's or tsx's child, a shell's
 * background job) is in the same group, so {@link ProcessGroup.stop} ends them all.
 */
export interface ProcessGroup {
  /** The command itself, the group's leader: its pid is the group's id. */
  readonly child: ChildProcessWithoutNullStreams;
  /** Standard output and standard error, interleaved as they arrived. */
  output(): string;
  /** The leader's exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /**
   * SIGKILL to every process of the group; resolves once none of them runs any more. Safe to
   * call twice, and after the command ended on its own.
   */
  stop(): Promise<void>;
}

/** Where and with what environment {@link startProcessGroup} runs the command. */
export interface ProcessGroupOptions {
  readonly cwd?: string;
  /** The whole environment of the command (nothing of this process's is added). */
  readonly env?: NodeJS.ProcessEnv;
}

// How long stop() waits for the killed group to go: SIGKILL cannot be caught, so only a process
// stuck in the kernel (a dead NFS mount) could take longer, and then the test should say so.
const STOP_LIMIT_MS = 10_000;

const running = new Set<ProcessGroup>();
let exitHookInstalled = false;

/**
 * Starts `command` in a new process group, and makes sure the whole group ends with the test:
 * `stop()` kills it (call it from `afterAll`, `afterEach` or `onTestFinished`, which run when a
 * test fails or times out too, never only at the end of the test's own body). Two nets catch a
 * group no hook stopped, since the test process may outlive the test by the rest of the run, or
 * die without running any hook: when this process exits, every group still running is killed;
 * and a watchdog shell kills the group as soon as this process is gone, even by SIGKILL.
 */
export function startProcessGroup(
  command: string,
  args: readonly string[],
  options: ProcessGroupOptions = {},
): ProcessGroup {
  installExitHook();
  // detached makes the child the leader of a new group (setsid): its group id is its pid.
  const child = spawn(command, args, { ...options, detached: true });
  const groupId = child.pid;
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  if (groupId === undefined) {
    // spawn failed (no such command): the error event says why, and there is nothing to stop.
    const failed = new Promise<never>((_, reject) => child.once("error", reject));
    return { child, output: () => output, exited: failed, stop: async () => undefined };
  }
  const watchdog = startWatchdog(groupId);
  let stopped: Promise<void> | undefined;
  const group: ProcessGroup = {
    child,
    output: () => output,
    exited,
    stop() {
      stopped ??= (async () => {
        killGroup(groupId);
        if (child.exitCode === null && child.signalCode === null) await exited;
        await groupGone(groupId);
        watchdog.kill();
        running.delete(group);
      })();
      return stopped;
    },
  };
  running.add(group);
  return group;
}

/** SIGKILL to every process of the group; nothing when it is gone already. */
function killGroup(groupId: number): void {
  try {
    process.kill(-groupId, "SIGKILL");
  } catch {
    // ESRCH: no process of the group is left.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Only synchronous work runs on exit: the signal is sent, and the kernel does the rest.
  process.once("exit", () => {
    for (const group of running) if (group.child.pid) killGroup(group.child.pid);
  });
}

/**
 * A shell that polls, once a second, whether this process still runs, and kills the group once
 * it does not; it ends by itself when the group has ended. Detached, so that a signal to this
 * process's own group (Ctrl-C on the run) does not take the watchdog with it.
 */
function startWatchdog(groupId: number) {
  const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 -${groupId} 2>/dev/null; do sleep 1; done; kill -0 ${process.pid} 2>/dev/null || kill -KILL -${groupId} 2>/dev/null`;
  const watchdog = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  watchdog.unref();
  return watchdog;
}

/** Resolves once no process of the group runs (zombies aside), or throws after the limit. */
async function groupGone(groupId: number): Promise<void> {
  for (let waited = 0; waited < STOP_LIMIT_MS; waited += 20) {
    if (liveMembers(groupId).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(
    `process group ${groupId} still runs ${liveMembers(groupId).join(", ")} after SIGKILL`,
  );
}

/**
 * The processes of the group that still run, from /proc. A zombie does not count: it runs
 * nothing, and where the machine's first process does not reap orphans (a container's), it
 * stays until the machine stops. Without /proc, none are known.
 */
function liveMembers(groupId: number): number[] {
  if (!existsSync("/proc/self/stat")) return [];
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        // After "pid (command) ": state, parent, group.
        const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return Number(group) === groupId && state !== "Z" && state !== "X";
      } catch {
        return false;
      }
    })
    .map(Number);
}
