// The command in-process, on Node: it reads the command line with node:util and reads and
// writes the app's files.
export { parseArguments } from "./arguments.js";
export { type CliEnvironment, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, runCli } from "./run.js";
