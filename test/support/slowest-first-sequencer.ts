import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The suite's slowest files, slowest first (project name and path from the repository root), as
 * measured on the 2-core development machine. Each takes from ten seconds to a minute,
 * mostly waiting on processes, workerd, PostgreSQL or a real clock. A test checks that each
 * still exists, so a renamed file does not quietly lose its place.
 */
export const SLOWEST_FILES = [
  "example-worker examples/worker/test/worker.test.ts",
  "cli packages/cli/test/new-project.test.ts",
  "example-app examples/app/test/process.test.ts",
  "repository test/sql-stores/store-contracts.d1.test.ts",
  "repository test/sql-stores/store-contracts.postgres-js.test.ts",
  "example-app examples/app/test/cluster.test.ts",
  "example-app examples/app/test/webhook-outbound-crash.test.ts",
  "repository test/sql-stores/store-contracts.postgresql.test.ts",
  "cli packages/cli/test/generated-app.test.ts",
  "example-app examples/app/test/webhook-crash.test.ts",
  "repository test/sql-stores/store-contracts.pglite.test.ts",
  "sqlite packages/sqlite/test/d1.test.ts",
  "example-worker examples/worker/test/worker-mail.test.ts",
  "repository test/framework-examples.test.ts",
  "example-app examples/app/test/mail-crash.test.ts",
  "example-app examples/app/test/chaos-postgres.test.ts",
  "example-worker examples/worker/test/worker-account-lifecycle.test.ts",
  "example-app examples/app/test/openapi-accounts.test.ts",
  "scripts scripts/release/test/dry-run.test.ts",
  "example-app examples/app/test/chaos-outboxes-postgres.test.ts",
  "records packages/records/test/downloads.test.ts",
  "example-app examples/app/test/route-fuzzing.test.ts",
];

/**
 * Vitest's order (project by project; within one, failed, then longest, then largest files
 * first), except that the slowest files of the whole run start first. Without a cache of earlier
 * runs (a fresh clone, CI) Vitest knows only file sizes, and a slow file that came last in its
 * project's turn ran alone at the end of the run while the other worker sat idle. Started
 * first, the slow files run beside the many short ones. A file missing from the list only loses
 * its head start.
 */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const path = file.moduleId.slice(this.ctx.config.root.length + 1);
      const index = SLOWEST_FILES.indexOf(`${file.project.name} ${path}`);
      return index === -1 ? SLOWEST_FILES.length : index;
    };
    // Array.prototype.sort is stable: the files outside the list keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
