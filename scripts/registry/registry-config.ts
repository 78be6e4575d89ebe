/** Verdaccio's configuration, as the parts the local registry sets. */
export interface RegistryConfig {
  readonly self_path: string;
  readonly config_path: string;
  readonly storage: string;
  readonly uplinks: Readonly<Record<string, { readonly url: string }>>;
  readonly packages: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly log: { readonly type: "stdout"; readonly format: "pretty"; readonly level: string };
  readonly web: { readonly enable: boolean };
  readonly max_body_size: string;
}

/** Where every package that is not ours comes from: the public npm registry. */
export const PUBLIC_REGISTRY = "https://registry.npmjs.org/";

/**
 * The local registry's configuration, its packages kept in `folder`: `@tessera/*` are served
 * only from what was published here (never proxied, so a name taken on npm can never stand in
 * for ours), and anyone may publish them; every other package is read through from npm.
 */
export function registryConfig(folder: string): RegistryConfig {
  return {
    self_path: folder,
    config_path: `${folder}/config.yaml`,
    storage: `${folder}/storage`,
    uplinks: { npmjs: { url: PUBLIC_REGISTRY } },
    packages: {
      "@tessera/*": { access: "$all", publish: "$all", unpublish: "$all" },
      "**": { access: "$all", publish: "$authenticated", proxy: "npmjs" },
    },
    // Verdaccio's own lines only when something is wrong: the script says what matters.
    log: { type: "stdout", format: "pretty", level: "error" },
    web: { enable: false },
    max_body_size: "100mb",
  };
}
