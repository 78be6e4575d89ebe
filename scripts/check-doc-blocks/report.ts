import type { DocProgram } from "./blocks.js";
import type { BlockError } from "./type-check.js";

/** The deliberately wrong program the check compiles beside the docs' programs. */
export const CANARY_SOURCE =
  'import { hashPassword } from "@tessera/password";\nhashPassword(42);\n';

/**
 * The lines `npm run typecheck` prints for the docs' programs: one per type error, at its line
 * of the Markdown file, plus one when the canary compiled cleanly (then the check would pass
 * anything, and says so instead). Empty when all is well.
 */
export function problemLines(
  programs: readonly DocProgram[],
  errors: ReadonlyMap<string, readonly BlockError[]>,
  canaryFile: string,
): string[] {
  const problems = programs.flatMap((program) =>
    (errors.get(program.virtualFile) ?? []).map(
      (error) => `${program.document}:${program.block.line + error.line - 1}: ${error.message}`,
    ),
  );
  if ((errors.get(canaryFile) ?? []).length === 0) {
    problems.push("the canary program type-checked: the docs' type check is finding nothing");
  }
  return problems;
}
