#!/usr/bin/env node
// Runs the `tessera` command from its TypeScript sources through tsx (a devDependency of the
// repository, never needed by an installed package). The repository's tsconfig `paths` point
// `@tessera/*` at the sibling packages' sources, so nothing has to be built first.
import { register } from "tsx/esm/api";

register({ tsconfig: new URL("../../../tsconfig.json", import.meta.url).pathname });
await import("../src/cli.ts");
