import { ConfigError, loadConfig } from "./config.js";
import { startServer } from "./server.js";

// Entry point of `npm start`: prints one line when ready, closes cleanly on SIGINT/SIGTERM.
try {
  const server = await startServer(loadConfig(process.env));
  console.log(`Tessera example app listening on ${server.url}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await server.close();
    console.log(`Stopped on ${signal}.`);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`Cannot start: ${error.message}`);
  process.exitCode = 1;
}
