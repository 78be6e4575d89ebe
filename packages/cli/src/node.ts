// The command in-process, on Node: it reads and writes the app's files.
export { type CliEnvironment, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, runCli } from "./run.js";
