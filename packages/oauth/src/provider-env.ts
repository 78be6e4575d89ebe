import {
  githubProvider,
  googleProvider,
  type OAuthProvider,
  openIdProvider,
  PROVIDER_NAME,
} from "./provider.js";

/** The environment as `process.env` or a Worker's `env` holds it. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The providers the environment configures, sorted by name. A provider is configured by
 * `{PROVIDER}_CLIENT_ID` and `{PROVIDER}_CLIENT_SECRET` (name in capitals): `GITHUB` and
 * `GOOGLE` are presets; any other name is an OpenID Connect provider and needs
 * `{PROVIDER}_ISSUER` too (a `*_CLIENT_ID` without it belongs to something else and is
 * ignored), with an optional `{PROVIDER}_LABEL` for its button (`Continue with <label>`).
 * @throws {TypeError} for a half-configured provider (a client id without its secret, an
 * issuer that is neither `https:` nor loopback `http:`): a configuration error, found at start.
 */
export function oauthProvidersFromEnv(env: Environment): OAuthProvider[] {
  const providers: OAuthProvider[] = [];
  for (const key of Object.keys(env).sort()) {
    const prefix = /^([A-Z][A-Z0-9_]*)_CLIENT_ID$/.exec(key)?.[1];
    const clientId = env[key];
    if (prefix === undefined || !clientId) continue;
    const issuer = env[`${prefix}_ISSUER`];
    const preset = prefix === "GITHUB" || prefix === "GOOGLE";
    if (!preset && !issuer) continue;
    const clientSecret = env[`${prefix}_CLIENT_SECRET`];
    if (!clientSecret) {
      throw new TypeError(`${prefix}_CLIENT_SECRET is not set, but ${prefix}_CLIENT_ID is`);
    }
    const name = prefix.toLowerCase();
    if (!PROVIDER_NAME.test(name)) {
      throw new TypeError(`${prefix} is too long for a provider name (at most 32 characters)`);
    }
    const credentials = { clientId, clientSecret };
    const label = env[`${prefix}_LABEL`];
    if (prefix === "GITHUB") providers.push(githubProvider(credentials));
    else if (prefix === "GOOGLE") providers.push(googleProvider(credentials));
    else {
      providers.push(
        openIdProvider({ ...credentials, name, issuer: issuer!, ...(label ? { label } : {}) }),
      );
    }
  }
  return providers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
