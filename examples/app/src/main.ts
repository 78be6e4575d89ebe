import cluster from "node:cluster";
import { reportListening, startCluster, WORKER_INDEX, WorkerStartFailed } from "./cluster.js";
import { ConfigError, loadConfig } from "./config.js";
import { PORT_IN_USE_EXIT_CODE, PortInUseError } from "./port-in-use.js";
import { startServer } from "./server.js";

// Entry point of `npm start`: prints one line when ready, closes cleanly on SIGINT/SIGTERM.
// With WEB_CONCURRENCY=N the first process forks N workers sharing the port and prints for them.
try {
  const config = loadConfig(process.env);
  const server =
    cluster.isPrimary && config.webConcurrency > 1
      ? await startCluster(config).then((running) => ({
          url: running.url,
          close: running.stop,
          processes: config.webConcurrency,
        }))
      : await startServer(config, {
          backgroundTasks: cluster.isPrimary || process.env[WORKER_INDEX] === "0",
        }).then((running) => ({ ...running, processes: 1 }));
  if (cluster.isWorker) {
    reportListening(server.url);
  } else {
    const processes = server.processes > 1 ? ` (${server.processes} processes)` : "";
    console.log(`Tessera example app listening on ${server.url}${processes}`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await server.close();
    if (cluster.isPrimary) console.log(`Stopped on ${signal}.`);
    // A worker's channel to the primary would keep it running.
    else process.disconnect();
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
} catch (error) {
  if (error instanceof WorkerStartFailed) {
    process.exitCode = 1;
  } else if (error instanceof PortInUseError && cluster.isWorker) {
    // The primary says so, or starts the workers on another port it picks.
    process.exitCode = PORT_IN_USE_EXIT_CODE;
  } else {
    if (!(error instanceof ConfigError)) throw error;
    // In a cluster every worker would say the same: the primary (or a lone process) says it.
    if (cluster.isPrimary || process.env[WORKER_INDEX] === "0") {
      console.error(`Cannot start: ${error.message}`);
    }
    process.exitCode = 1;
  }
  // A worker's channel to the primary would keep it running, and the primary waiting for it.
  // The worker's own disconnect, not the process's: that one would exit with code 0.
  cluster.worker?.disconnect();
}
