import { parseArgs } from "node:util";

/** What `npm run release -- …` was asked to do, or why it refuses. */
export type ReleaseCommand =
  | {
      readonly kind: "release";
      readonly registry: string;
      readonly token: string | undefined;
      readonly build: boolean;
    }
  | { readonly kind: "dry-run"; readonly build: boolean }
  | { readonly kind: "refused"; readonly message: string };

const USAGE =
  "Usage: npm run release -- --registry <url> [--token <token>] [--skip-build]\n" +
  "       npm run release -- --dry-run [--skip-build]";

/**
 * Reads the command line of `npm run release`. `--dry-run` publishes only to a registry of its
 * own, so it refuses `--registry` and `--token` rather than leave the user thinking they were
 * used (`NPM_TOKEN` is left unread); a release without it needs `--registry`.
 */
export function releaseCommand(args: readonly string[], env: NodeJS.ProcessEnv): ReleaseCommand {
  let values: {
    registry?: string | undefined;
    token?: string | undefined;
    "skip-build"?: boolean | undefined;
    "dry-run"?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        registry: { type: "string" },
        token: { type: "string" },
        "skip-build": { type: "boolean" },
        "dry-run": { type: "boolean" },
      },
    }));
  } catch (error) {
    return { kind: "refused", message: `${(error as Error).message}\n${USAGE}` };
  }
  const build = !values["skip-build"];
  if (values["dry-run"]) {
    const given = (["registry", "token"] as const).filter((name) => values[name] !== undefined);
    if (given.length > 0) {
      return {
        kind: "refused",
        message:
          `--dry-run publishes to a local registry of its own; it takes no ${given.map((name) => `--${name}`).join(" or ")}.\n` +
          USAGE,
      };
    }
    return { kind: "dry-run", build };
  }
  if (!values.registry) {
    return {
      kind: "refused",
      message:
        "Say where to publish: npm run release -- --registry https://registry.npmjs.org/ " +
        "(or try it first: npm run release -- --dry-run)",
    };
  }
  return {
    kind: "release",
    registry: values.registry,
    token: values.token ?? env.NPM_TOKEN,
    build,
  };
}
