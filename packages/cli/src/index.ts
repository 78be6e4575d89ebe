export { type Invocation, parseArguments, USAGE, type UsageError } from "./arguments.js";
export { type CliEnvironment, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, runCli } from "./run.js";
