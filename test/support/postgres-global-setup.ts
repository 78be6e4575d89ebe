import type { TestProject } from "vitest/node";
import { startPostgresCluster } from "./postgres-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL server whose user may create schemas: see `freshPostgresDatabase`. */
    postgresUrl: string;
  }
}

/**
 * Vitest global setup of the projects that test on PostgreSQL: a throw-away server for the
 * run (or the one TESSERA_TEST_POSTGRES_URL names), stopped when the project's tests end.
 */
export default async function setup(project: TestProject) {
  const given = process.env.TESSERA_TEST_POSTGRES_URL;
  if (given) {
    project.provide("postgresUrl", given);
    return;
  }
  const cluster = await startPostgresCluster();
  project.provide("postgresUrl", cluster.url);
  return () => cluster.stop();
}
