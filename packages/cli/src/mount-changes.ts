import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FileChanges } from "./file-changes.js";
import { modelExportName } from "./model-module.js";
import {
  importLines,
  type MountedModel,
  modelMount,
  mountInto,
  ROUTES_FILE,
  ROUTES_MARKER,
} from "./model-mount.js";

/** The changes that mount a model, or why `--mount` cannot make them. */
export type MountChanges =
  | { readonly ok: true; readonly changes: Pick<FileChanges, "updated" | "printed" | "notes"> }
  | { readonly ok: false; readonly reason: string; readonly hint: string };

/** Whether the app in `root` is a `tessera new` project whose routes list `--mount` can extend. */
function hasRoutesList(root: string): boolean {
  const path = join(root, ROUTES_FILE);
  return (
    existsSync(path) &&
    readFileSync(path, "utf8")
      .split("\n")
      .some((line) => line.trim() === ROUTES_MARKER)
  );
}

/**
 * How a generated model gets served in a `tessera new` project: with `mount`, its routes
 * written into src/app.ts (nothing changed when the file mounts it already, a refusal when the
 * file is not as `tessera new` wrote it); without, the same lines printed, for the app to add,
 * in a project whose src/app.ts has its routes list (another app's routes are its own).
 */
export function mountChanges(root: string, model: MountedModel, mount: boolean): MountChanges {
  const lines = modelMount(model);
  if (!mount && !hasRoutesList(root)) return { ok: true, changes: {} };
  if (!mount) {
    const imports = importLines(lines);
    const routes = lines.routes.map((line) => `    ${line}`);
    return {
      ok: true,
      changes: {
        printed: {
          text: [
            `mount: to serve it, add these imports to ${ROUTES_FILE} (made by \`tessera new\`)`,
            ...imports.map((line) => `  ${line}`),
            "mount: and these lines to its routes list, above its last line",
            ...routes,
            `mount: \`npx tessera generate model ${model.name} --mount\` does both`,
          ],
          file: [ROUTES_FILE, imports.join("\n")],
          json: { mount: { file: ROUTES_FILE, imports, routes: lines.routes } },
        },
      },
    };
  }
  const path = join(root, ROUTES_FILE);
  if (!existsSync(path)) {
    return {
      ok: false,
      reason: `there is no \`${ROUTES_FILE}\` to mount the routes in`,
      hint: `leave out \`--mount\` and add the printed lines to your routes yourself: --mount writes into the ${ROUTES_FILE} of a \`tessera new\` project, whose routes list ends with \`${ROUTES_MARKER}\``,
    };
  }
  const mounted = mountInto(readFileSync(path, "utf8"), model.name, lines);
  if (!mounted.ok) return mounted;
  return {
    ok: true,
    changes: mounted.changed
      ? { updated: [[ROUTES_FILE, mounted.text]] }
      : {
          notes: [
            `${ROUTES_FILE} uses ${modelExportName(model.name)} already: it is left as it is`,
          ],
        },
  };
}
