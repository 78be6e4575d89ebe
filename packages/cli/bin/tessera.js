#!/usr/bin/env node
// The `tessera` command. An installed package runs its build; inside the Tessera repository,
// before `npm run build`, there is no dist/ yet, so the TypeScript sources run instead.
import { existsSync } from "node:fs";

const built = new URL("../dist/cli.js", import.meta.url);
await import(existsSync(built) ? built.href : "./tessera-from-source.js");
