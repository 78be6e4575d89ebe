/** The settings the registry is read from: npm's `npm_config_*` variables. */
export type RegistryEnvironment = Readonly<Record<string, string | undefined>>;

/** npm's public registry, and Yarn's copy of it: the packages' home once they are released. */
const PUBLIC_REGISTRY_HOSTS: ReadonlySet<string> = new Set([
  "registry.npmjs.org",
  "registry.yarnpkg.com",
]);

/**
 * The registry npm ran the CLI from, when it is not npm's public one: `npx --registry <url>`
 * and `npm exec` hand their registry to the command as `npm_config_registry` (so does any npm
 * setting that names another registry). Until the `@tessera` packages are on npm, an install
 * line without it answers E404. The URL as npm gives it, without any user name or password in
 * it, so it can be printed and written down; undefined when the variable is unset, names npm's
 * own registry, or is no http(s) URL.
 */
export function installRegistry(env: RegistryEnvironment): string | undefined {
  const value = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY;
  if (value === undefined || value.trim() === "") return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (PUBLIC_REGISTRY_HOSTS.has(url.hostname)) return undefined;
  url.username = "";
  url.password = "";
  url.search = "";
  url.hash = "";
  return url.href;
}

/** ` --registry <url>` to end an install command with, or nothing for npm's own registry. */
export function registryFlag(registry: string | undefined): string {
  return registry === undefined ? "" : ` --registry ${registry}`;
}
