import { execFile, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/**
 * How {@link PostgresCluster.halt} stops the server: `fast` ends every connection with an
 * error message first (an orderly restart), `immediate` drops them as a crash would.
 */
export type HaltMode = "fast" | "immediate";

/** A throw-away PostgreSQL server on 127.0.0.1, for tests. */
export interface PostgresCluster {
  /** `postgres://tessera@127.0.0.1:<port>/postgres`: a superuser, no password (trust). */
  readonly url: string;
  /** The server's main process (its backends are its children); a new one after `resume`. */
  readonly pid: number;
  /**
   * Stops the server and resolves once it is down, keeping its data folder and port, so that
   * `resume` brings the same databases back at the same URL (chaos tests restart it).
   */
  halt(mode: HaltMode): Promise<void>;
  /** Starts the halted server again on its port and resolves once it takes connections. */
  resume(): Promise<void>;
  /** Stops the server and deletes its folder. */
  stop(): void;
}

/** The folder of Debian's server binaries (the newest installed), or of `initdb` on PATH. */
function binaries(): string {
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((version) => existsSync(join(debian, version, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], "bin");
  }
  try {
    return execFileSync("sh", ["-c", 'dirname "$(command -v initdb)"'], {
      encoding: "utf8",
    }).trim();
  } catch {
    throw new Error(
      "PostgreSQL's server binaries are missing: run `bash scripts/ensure-postgresql.sh` (Debian's postgresql), or set TESSERA_TEST_POSTGRES_URL",
    );
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Options of {@link startPostgresCluster}. */
export interface PostgresClusterOptions {
  /**
   * Acknowledge a commit only once its WAL is written (`synchronous_commit=on`), so that a
   * server killed with `halt("immediate")` keeps every commit it acknowledged, as a real one
   * does. Off by default: tests that never crash the server go faster without it.
   */
  readonly crashSafeCommits?: boolean;
}

/**
 * initdb into a temporary folder and `pg_ctl start` on a free port of 127.0.0.1, with fsync
 * off (a test server never outlives a crash of the machine) and, unless `crashSafeCommits`,
 * commits acknowledged before their WAL is written. PostgreSQL refuses to run as root, so as
 * root the server runs as the `postgres` user Debian's package creates. A watchdog process
 * stops the server and deletes the folder if this process dies without calling `stop`.
 */
export async function startPostgresCluster(
  clusterOptions: PostgresClusterOptions = {},
): Promise<PostgresCluster> {
  const bin = binaries();
  const folder = mkdtempSync(join(tmpdir(), "tessera-postgres-"));
  const data = join(folder, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(folder, 0o755);
    const { uid, gid } = postgresUser();
    chownSync(folder, uid, gid);
  }
  // As the server's user: through runuser as root.
  const asServerUser = (command: string, args: string[]): [string, string[]] =>
    asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  const run = (command: string, args: string[]) =>
    execFileSync(...asServerUser(command, args), { stdio: ["ignore", "pipe", "pipe"] });
  // pg_ctl without blocking this process: a chaos test's requests go on meanwhile.
  const runAsync = (command: string, args: string[]) =>
    promisify(execFile)(...asServerUser(command, args));
  const port = await freePort();
  run(join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "tessera",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
    "--no-instructions",
  ]);
  const synchronousCommit = clusterOptions.crashSafeCommits ? "on" : "off";
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=${synchronousCommit} -c full_page_writes=off -c max_connections=300`;
  const startArguments = [
    "start",
    "-w",
    "-D",
    data,
    "-l",
    join(folder, "server.log"),
    "-o",
    options,
  ];
  run(join(bin, "pg_ctl"), startArguments);
  const stopCommand = `${asRoot ? "runuser -u postgres -- " : ""}${join(bin, "pg_ctl")} stop -D ${data} -m immediate`;
  const watchdog = spawn(
    "sh",
    [
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${stopCommand} >/dev/null 2>&1; rm -rf ${folder}`,
    ],
    { detached: true, stdio: "ignore" },
  );
  watchdog.unref();
  let stopped = false;
  let running = true;
  const readPid = () => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  let pid = readPid();
  return {
    url: `postgres://tessera@127.0.0.1:${port}/postgres`,
    get pid() {
      return pid;
    },
    async halt(mode) {
      running = false;
      await runAsync(join(bin, "pg_ctl"), ["stop", "-w", "-D", data, "-m", mode]);
    },
    async resume() {
      await runAsync(join(bin, "pg_ctl"), startArguments);
      running = true;
      pid = readPid();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        if (running) execFileSync("sh", ["-c", stopCommand], { stdio: "ignore" });
      } finally {
        watchdog.kill();
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const [uid, gid] = execFileSync("sh", ["-c", "id -u postgres && id -g postgres"], {
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .map(Number);
  if (uid === undefined || gid === undefined || Number.isNaN(uid)) {
    throw new Error("running as root needs the postgres user (Debian's postgresql creates it)");
  }
  return { uid, gid };
}
