// `npm run typecheck`, after tsc: the first ```ts block of each package README and of the
// framework guides compiles against the packages as they are. All of them, and one wrong
// canary program that must fail, compile in one TypeScript program (see type-check.ts).
import { join } from "node:path";
import { docPrograms } from "./blocks.js";
import { CANARY_SOURCE, problemLines } from "./report.js";
import { typeErrorsOf } from "./type-check.js";

const root = join(import.meta.dirname, "..", "..");
const programs = docPrograms(root);
const canaryFile = join(root, "docs-canary.ts");
const errors = typeErrorsOf(join(root, "tsconfig.json"), [
  ...programs.map((program) => ({ fileName: program.virtualFile, source: program.block.code })),
  { fileName: canaryFile, source: CANARY_SOURCE },
]);
const problems = problemLines(programs, errors, canaryFile);
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`${programs.length} documented programs type-check`);
