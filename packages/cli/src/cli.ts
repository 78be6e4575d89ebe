#!/usr/bin/env node
import { runCli } from "./run.js";

// No top-level await: this entry is built as CommonJS too.
void runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then((code) => {
  process.exitCode = code;
});
