// The main entry is pure (no file system), so it loads on any runtime; the command that reads
// and writes an app's files is `@tessera/cli/node`.
export { type Invocation, parseArguments, USAGE, type UsageError } from "./arguments.js";
