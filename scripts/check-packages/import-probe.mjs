// Loads one entry of an installed package the way a user would and prints, as JSON, what it
// exports and what it touched while loading: built-in modules asked for (by the entry or any
// dependency) and environment variables read. Usage: node import-probe.mjs <esm|cjs> <specifier>
// It runs from the temporary project, so the specifier resolves as it would for a user.
import { createRequire, isBuiltin, register } from "node:module";
import { join } from "node:path";

const [mode, specifier] = process.argv.slice(2);
const Module = createRequire(import.meta.url)("node:module");

let recording = false;
const builtins = [];
const environmentReads = new Set();

register("./import-probe-hooks.mjs", import.meta.url);

// CommonJS requires go through Module._load, which the ES hooks do not always see.
const load = Module._load;
Module._load = function recordBuiltin(request, parent, isMain) {
  if (recording && isBuiltin(request)) {
    builtins.push({ specifier: request, from: parent?.filename ?? "" });
  }
  return load.call(this, request, parent, isMain);
};

// Node reads a few variables itself while loading modules (NODE_V8_COVERAGE...): only reads
// whose caller is not Node's own code count.
const environment = process.env;
function noteRead(key) {
  if (!recording) return;
  const caller = new Error().stack?.split("\n")[3]?.trim() ?? "";
  if (caller.includes("(node:") || caller.startsWith("at node:")) return;
  const location = caller.match(/(?:\(|at )(\S+?):\d+:\d+\)?$/)?.[1] ?? caller;
  environmentReads.add(`${typeof key === "string" ? key : "(every variable)"} by ${location}`);
}
process.env = new Proxy(environment, {
  get(target, key) {
    if (typeof key === "string") noteRead(key);
    return Reflect.get(target, key);
  },
  has(target, key) {
    noteRead(key);
    return Reflect.has(target, key);
  },
  ownKeys(target) {
    noteRead(undefined);
    return Reflect.ownKeys(target);
  },
});

let loaded;
let failure = null;
recording = true;
try {
  loaded =
    mode === "esm"
      ? await import(specifier)
      : createRequire(join(process.cwd(), "package.json"))(specifier);
} catch (error) {
  failure = String(error?.stack ?? error);
}
recording = false;
const { default: esmBuiltins } = await import("tessera-probe:report");

process.stdout.write(
  JSON.stringify({
    failure,
    exports: loaded ? Object.keys(loaded).sort() : [],
    builtins: [...esmBuiltins, ...builtins],
    environmentReads: [...environmentReads].sort(),
  }),
);
