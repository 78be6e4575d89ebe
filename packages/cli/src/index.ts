// The main entry is pure (no file system, no `node:` module), so it loads on any runtime; the
// parser (`parseArguments`, on node:util's parseArgs) and the command that reads and writes an
// app's files are `@tessera/cli/node`.
export { USAGE } from "./command-table.js";
export type { Invocation, UsageError } from "./invocation.js";
