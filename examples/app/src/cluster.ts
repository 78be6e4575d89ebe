import cluster, { type Worker } from "node:cluster";
import { type AddressInfo, createServer } from "node:net";
import { type AppConfig, ConfigError } from "./config.js";
import { PORT_IN_USE_EXIT_CODE, PortInUseError } from "./port-in-use.js";

/** What a worker tells the primary once it listens. */
interface ListeningMessage {
  readonly listening: string;
}

/** The environment variable that gives each worker its place (0 runs the background tasks). */
export const WORKER_INDEX = "TESSERA_WORKER_INDEX";

/**
 * `WEB_CONCURRENCY=N`: the primary process forks N workers that share the port (node:cluster)
 * and resolves with the URL once all of them listen. Worker 0 runs the job sweep and the
 * cleanups; a worker that dies later is replaced in its place, on the same port (both are
 * logged). A worker that fails to start stops them all: the promise rejects with what it
 * printed, or with a {@link PortInUseError} (PORT=0 picks another port first). `stop()` ends the
 * workers gracefully.
 * @throws {ConfigError} for an in-memory database, which N processes could not share.
 */
export async function startCluster(
  config: AppConfig,
): Promise<{ readonly url: string; stop(): Promise<void> }> {
  if (config.databaseUrl === undefined && config.databasePath === ":memory:") {
    throw new ConfigError(
      "WEB_CONCURRENCY above 1 needs DATABASE_URL or a DATABASE_PATH file: each process would have a :memory: database of its own",
    );
  }
  // Node's primary closes the shared socket when its last worker dies, and the next worker to
  // listen opens it anew: with PORT=0 that would be another port, and the address printed at
  // start would answer no more. So PORT=0 is resolved here, once, and every worker gets the
  // port itself (the socket is keyed by the port asked for: workers asking for 0 and for the
  // port would not share it).
  if (config.port !== 0) return startWorkers(config, config.port);
  return startOnPickedPort(
    () => freePort(config.host),
    (port) => startWorkers(config, port),
  );
}

/**
 * Starts on a port `pick` chose, and on another one when it was taken in between: the pick
 * closes its probe before the workers listen, and any process may bind the port meanwhile.
 * @throws {PortInUseError} when `attempts` picks in a row were taken.
 */
export async function startOnPickedPort<Started>(
  pick: () => Promise<number>,
  start: (port: number) => Promise<Started>,
  attempts = 3,
): Promise<Started> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await pick());
    } catch (error) {
      if (!(error instanceof PortInUseError) || attempt === attempts) throw error;
    }
  }
}

/** Forks `config.webConcurrency` workers listening on `port`; resolves once all of them do. */
async function startWorkers(
  config: AppConfig,
  port: number,
): Promise<{ readonly url: string; stop(): Promise<void> }> {
  let started = false;
  let stopping = false;
  const fork = (index: number): Worker => {
    const worker = cluster.fork({ [WORKER_INDEX]: String(index), PORT: String(port) });
    worker.once("exit", (code, signal) => {
      if (stopping || !started) return;
      console.error(`Worker ${index} ended (${signal ?? `exit code ${code}`}); starting another.`);
      // A second's pause, so a worker that dies at once (its database gone) does not spin.
      setTimeout(() => {
        if (stopping) return;
        const replacement = fork(index);
        workers[index] = replacement;
        // A replacement that ends before it listens is replaced in turn (its exit said so).
        listening(replacement).then(
          () => console.log(`Worker ${index} is serving again.`),
          () => {},
        );
      }, 1000);
    });
    return worker;
  };
  const workers = Array.from({ length: config.webConcurrency }, (_, index) => fork(index));
  const stop = async () => {
    stopping = true;
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            worker.once("exit", () => resolve());
            worker.process.kill("SIGTERM");
          }),
      ),
    );
  };
  try {
    const urls = await Promise.all(workers.map(listening));
    started = true;
    return { url: urls[0]!, stop };
  } catch (error) {
    await stop();
    // The workers say nothing of a port in use: the primary does, or tries another port.
    if (error instanceof WorkerStartFailed && error.exitCode === PORT_IN_USE_EXIT_CODE) {
      throw new PortInUseError(port);
    }
    throw error;
  }
}

/**
 * A port of `host` that is free now: the system's pick, as for PORT=0. Another process could
 * take it before the workers listen ({@link startOnPickedPort} then picks again).
 */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The URL a worker reports once it listens; rejects if it exits first. */
function listening(worker: Worker): Promise<string> {
  return new Promise((resolve, reject) => {
    worker.on("message", (message: Partial<ListeningMessage>) => {
      if (typeof message.listening === "string") resolve(message.listening);
    });
    worker.once("exit", (code) => reject(new WorkerStartFailed(code)));
  });
}

/** A worker ended before it listened; it printed why. */
export class WorkerStartFailed extends Error {
  constructor(readonly exitCode: number | null) {
    super(`a worker ended before it listened (exit code ${exitCode})`);
  }
}

/** In a worker: tells the primary it listens at `url`. */
export function reportListening(url: string): void {
  process.send?.({ listening: url } satisfies ListeningMessage);
}
