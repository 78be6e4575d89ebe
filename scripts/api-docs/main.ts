// `npm run docs`: the API reference in docs/api, one module per entry the packages' `exports`
// maps name (`@tessera/accounts`, `@tessera/accounts/sql`, `@tessera/sqlite/d1`…). TypeDoc's
// configuration cannot derive entry points from `exports` (its "packages" strategy reads one
// entry per package unless each package repeats its subpaths in a config of its own, and it
// builds one TypeScript program per package), so this script passes them to one program and
// names each module by its specifier. The static options are in typedoc.jsonc. Any warning —
// an export without TSDoc, a broken {@link} — fails the build.
import { resolve } from "node:path";
import {
  Application,
  Converter,
  type DeclarationReflection,
  PackageJsonReader,
  ReflectionKind,
  TSConfigReader,
  TypeDocReader,
} from "typedoc";
import { workspacePackages } from "../check-packages/workspace-packages.js";
import { apiEntries } from "./entry-points.js";

const root = resolve(import.meta.dirname, "..", "..");
const entries = apiEntries(workspacePackages(root));
const specifierOfFile = new Map(
  entries.map((entry) => [resolve(entry.sourceFile), entry.specifier]),
);

const app = await Application.bootstrapWithPlugins(
  { entryPoints: entries.map((entry) => entry.sourceFile) },
  [new TypeDocReader(), new PackageJsonReader(), new TSConfigReader()],
);
// TypeDoc names a module by its path ("accounts/src/sql"); a reader looks for the import.
app.converter.on(
  Converter.EVENT_CREATE_DECLARATION,
  (context, reflection: DeclarationReflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return;
    const fileName = context
      .getSymbolFromReflection(reflection)
      ?.declarations?.[0]?.getSourceFile().fileName;
    const specifier = fileName && specifierOfFile.get(resolve(fileName));
    if (specifier) reflection.name = specifier;
  },
);

/** typedoc.jsonc's treatWarningsAsErrors: TypeDoc's CLI reads it, its API leaves it to us. */
function failed(): boolean {
  return app.logger.hasErrors() || app.logger.hasWarnings();
}

const project = await app.convert();
if (!project || failed()) process.exit(1);
app.validate(project);
if (failed()) process.exit(1);
await app.generateOutputs(project);
if (failed()) process.exit(1);
