import type { Runtime } from "./smoke.js";

// The generated programs that start a compiled smoke (`<name>.smoke.mjs`, next to them) on each
// runtime. They print SMOKE_PASSED last when the smoke ran to its end.

/** What a harness prints when its smoke passed. */
export const SMOKE_PASSED = "SMOKE_PASSED";

const CHECK = `const check = (condition, what) => {
  if (!condition) throw new Error("check failed: " + what);
};`;

/** A program for Node (`import` or `require`), Bun or Deno; its file name ends in `extension`. */
export function processHarness(
  smokeFile: string,
  runtime: Exclude<Runtime, "workerd">,
): { readonly source: string; readonly extension: ".mjs" | ".cjs" } {
  if (runtime === "node-cjs") {
    // A CommonJS program: `require` gives what a CommonJS user gets, the ES build through
    // Node's require() of ES modules.
    return {
      extension: ".cjs",
      source: `${CHECK}
import(${JSON.stringify(`./${smokeFile}`)}).then(async ({ default: smoke }) => {
  await smoke.run({ runtime: "node-cjs", load: async (specifier) => require(specifier), check, bindings: {} });
  console.log(${JSON.stringify(SMOKE_PASSED)});
});
`,
    };
  }
  return {
    extension: ".mjs",
    source: `${CHECK}
import smoke from ${JSON.stringify(`./${smokeFile}`)};
await smoke.run({ runtime: ${JSON.stringify(runtime)}, load: (specifier) => import(specifier), check, bindings: {} });
console.log(${JSON.stringify(SMOKE_PASSED)});
`,
  };
}

/**
 * A Worker module for workerd: every specifier the smoke loads is imported statically, so the
 * bundler puts what a Worker build of the user's app would hold into one script.
 */
export function workerHarness(smokeFile: string, specifiers: readonly string[]): string {
  const imports = specifiers.map(
    (specifier, index) => `import * as module${index} from ${JSON.stringify(specifier)};`,
  );
  const table = specifiers.map(
    (specifier, index) => `  ${JSON.stringify(specifier)}: module${index},`,
  );
  return `${CHECK}
import smoke from ${JSON.stringify(`./${smokeFile}`)};
${imports.join("\n")}
const modules = {
${table.join("\n")}
};
export default {
  async fetch(request, env) {
    try {
      await smoke.run({ runtime: "workerd", load: async (specifier) => modules[specifier], check, bindings: env });
      return new Response(${JSON.stringify(SMOKE_PASSED)});
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
`;
}
