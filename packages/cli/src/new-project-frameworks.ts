import type { NPM_RANGES } from "./new-project-versions.js";

/** The web frameworks `tessera new` writes a project for. */
export type Framework = "hono" | "express" | "fastify";

/** What a project of one framework has of its own; every other file is the same for all three. */
export interface FrameworkParts {
  /** How the README names it. */
  readonly title: string;
  /** The `@tessera/*` packages its app.ts imports, besides those every project has. */
  readonly tessera: readonly string[];
  readonly dependencies: readonly (keyof typeof NPM_RANGES)[];
  readonly devDependencies: readonly (keyof typeof NPM_RANGES)[];
  /** main.ts's import of what listens (first in the file: it sorts before `./app.js`). */
  readonly serverImport: string;
  /** The test's import for its client (first in the file: it sorts before `node:fs`, `vitest`). */
  readonly clientImport: string;
}

/** Each framework's parts; its templates are `new-app-<name>`, `new-listen-<name>`, `new-client-<name>`. */
export const FRAMEWORKS: Readonly<Record<Framework, FrameworkParts>> = {
  hono: {
    title: "Hono",
    tessera: ["hono", "session"],
    dependencies: ["hono", "@hono/node-server"],
    devDependencies: [],
    serverImport: 'import { serve } from "@hono/node-server";',
    clientImport: "",
  },
  express: {
    title: "Express",
    tessera: ["node"],
    dependencies: ["express"],
    devDependencies: ["@types/express"],
    serverImport: 'import type { AddressInfo } from "node:net";',
    clientImport: 'import { once } from "node:events";',
  },
  fastify: {
    title: "Fastify",
    tessera: ["node"],
    dependencies: ["fastify"],
    devDependencies: [],
    serverImport: "",
    clientImport: "",
  },
};
