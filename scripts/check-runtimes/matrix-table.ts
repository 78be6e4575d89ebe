import type { SmokeOutcome } from "./run-smoke.js";
import { RUNTIMES, type Runtime, type RuntimeSmoke } from "./smoke.js";

/** One package's row: its smoke and how it fared on each runtime. */
export interface MatrixRow {
  readonly packageName: string;
  readonly smoke: RuntimeSmoke;
  readonly outcomes: Readonly<Record<Runtime, SmokeOutcome>>;
}

const RUNTIME_TITLES: Readonly<Record<Runtime, string>> = {
  "node-esm": "Node (import)",
  "node-cjs": "Node (require)",
  bun: "Bun",
  deno: "Deno",
  workerd: "workerd",
};

/**
 * The package × runtime table in Markdown: ✓ passed, ✗ failed, – not for that runtime, with
 * numbered notes under the table for every failure, exclusion and extra Deno permission.
 */
export function matrixTable(rows: readonly MatrixRow[]): string {
  const notes: string[] = [];
  const note = (text: string) => {
    const existing = notes.indexOf(text);
    if (existing !== -1) return existing + 1;
    notes.push(text);
    return notes.length;
  };
  const lines = [
    `| package | smoke | ${RUNTIMES.map((runtime) => RUNTIME_TITLES[runtime]).join(" | ")} |`,
    `|---|---|${RUNTIMES.map(() => "---").join("|")}|`,
  ];
  for (const row of rows) {
    const cells = RUNTIMES.map((runtime) => {
      const outcome = row.outcomes[runtime];
      if (outcome.result === "not-for") return `– [${note(outcome.detail ?? "")}]`;
      if (outcome.result === "failed") return `✗ [${note(`failed: ${outcome.detail ?? ""}`)}]`;
      const permissions = runtime === "deno" ? (row.smoke.denoPermissions ?? []) : [];
      if (permissions.length === 0) return "✓";
      const marks = permissions.map(
        (permission) => `[${note(`\`${permission.flag}\`: ${permission.why}`)}]`,
      );
      return `✓ ${marks.join(" ")}`;
    });
    lines.push(`| ${row.packageName} | ${row.smoke.does} | ${cells.join(" | ")} |`);
  }
  const noteLines = notes.map((text, index) => `${index + 1}. ${text}`);
  return [...lines, "", ...noteLines].join("\n").trimEnd();
}
