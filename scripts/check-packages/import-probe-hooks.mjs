// Module hooks for import-probe.mjs: records every built-in module an ES module (or a CommonJS
// module the ES loader runs) asks for while the probed entry loads. The list is handed back
// through a module of its own, `tessera-probe:report`, so no message can arrive late.
import { isBuiltin } from "node:module";

const REPORT = "tessera-probe:report";
const requested = [];

export async function resolve(specifier, context, nextResolve) {
  if (specifier === REPORT) {
    const source = `export default ${JSON.stringify(requested)};`;
    return { url: `data:text/javascript,${encodeURIComponent(source)}`, shortCircuit: true };
  }
  if (isBuiltin(specifier)) requested.push({ specifier, from: context.parentURL ?? "" });
  return nextResolve(specifier, context);
}
