import {
  type Clock,
  fail,
  ok,
  type Result,
  requireFunctionOption,
  requireObjectOption,
  signedInBeforeCredentialsChanged,
  systemClock,
} from "@tessera/core";
import { sha256Hex } from "@tessera/crypto";
import { pathId } from "@tessera/http";
import type { ApiKeyRecord, ApiKeyStore } from "./api-key-store.js";
import { type AuthorizationHeaderFailure, readBearerToken } from "./authorization-header.js";
import type { JwtFailure, JwtVerifier, SignInAuthentication } from "./jwt.js";
import { touchWhenStale } from "./last-used.js";

/** Who made the request, and with which kind of credential. */
export type BearerIdentity<U> =
  | {
      readonly user: U;
      readonly credential: "jwt";
      /** How the token's sign-in was made; undefined for a token issued without it. */
      readonly authentication: SignInAuthentication | undefined;
    }
  | { readonly user: U; readonly credential: "api_key"; readonly apiKeyId: number };

/**
 * Why a request was not authenticated: for logs only. Every one of them is answered with the
 * same {@link unauthorizedResponse}.
 */
export type BearerFailure =
  | AuthorizationHeaderFailure
  | JwtFailure
  /** Not the shape of a key we issue, or no key has its digest (never issued, or revoked). */
  | "unknown-api-key"
  /** The token's user no longer exists. */
  | "unknown-user"
  /** The token was issued before its user's credentials changed (a password change, say). */
  | "credentials-changed"
  /** The token acts for its user (`act`), and `checkActor` does not vouch for the actor. */
  | "actor-refused";

/** Options for {@link createBearerAuthenticator}. */
export interface BearerAuthenticatorOptions<U> {
  readonly jwt: JwtVerifier;
  readonly apiKeys: ApiKeyStore;
  /** Loads a user by id; undefined for a deleted user, whose tokens then stop working. */
  readonly findUser: (id: number) => Promise<U | undefined>;
  /**
   * Finds the key with this SHA-256 digest and its user in one lookup (for SQL, one joined
   * statement) instead of `apiKeys.findByDigest` and then `findUser`: one query per request with
   * a key rather than two. Undefined when no key has the digest or its user is gone. Give it only
   * where keys and users live together, as `sqlAccountStores` does.
   */
  readonly findKeyHolder?: ((digest: string) => Promise<ApiKeyHolder<U> | undefined>) | undefined;
  /**
   * When the user's credentials last changed (epoch ms), or null: a JWT issued before then is
   * refused (`credentials-changed`, compared in whole seconds, see
   * `signedInBeforeCredentialsChanged`). API keys are not affected; they are revoked one by one.
   */
  readonly credentialsChangedAt?: ((user: U) => number | null) | undefined;
  /**
   * Whether a token whose `act` claim says someone else acts for its user (an operator
   * impersonating them) may: given the actor's id, the user and when the token was issued
   * (epoch ms). Without it, every such token is refused (`actor-refused`).
   */
  readonly checkActor?:
    | ((actorId: string, user: U, issuedAt: number) => Promise<boolean>)
    | undefined;
  readonly clock?: Clock | undefined;
}

/** An API key together with the user it belongs to. */
export interface ApiKeyHolder<U> {
  readonly key: ApiKeyRecord;
  readonly user: U;
}

/** Authenticates JSON requests by their `Authorization: Bearer` header. */
export interface BearerAuthenticator<U> {
  /** Never throws on the request; store and `findUser` errors propagate. */
  authenticate(request: Request): Promise<Result<BearerIdentity<U>, BearerFailure>>;
}

// What randomToken() makes: 43 URL-safe base64 characters. Anything else is not worth a query.
const API_KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;
// A user id as the JWT `sub`: a positive decimal integer, no sign, no leading zero.
/**
 * Reads `Authorization: Bearer <token>`: a token with dots is verified as a JWT, any other is
 * looked up as an API key by its SHA-256 digest. Either way the user is then loaded.
 *
 * @example
 * ```ts
 * import { SqlUserStore } from "@tessera/accounts/sql";
 * import { createBearerAuthenticator, createJwtIssuer, unauthorizedResponse } from "@tessera/bearer";
 * import { SqlApiKeyStore } from "@tessera/bearer/sql";
 * import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
 *
 * const database = openSqliteFile("data/app.db");
 * const users = new SqlUserStore(database);
 * const bearer = createBearerAuthenticator({
 *   jwt: createJwtIssuer({ secrets: { current: process.env.SECRET_KEY_BASE! } }),
 *   apiKeys: new SqlApiKeyStore(database),
 *   findUser: (id) => users.findById(id),
 * });
 *
 * async function me(request: Request): Promise<Response> {
 *   const auth = await bearer.authenticate(request);
 *   if (!auth.ok) return unauthorizedResponse(); // 401 with WWW-Authenticate: Bearer
 *   return Response.json({ email: auth.value.user.email });
 * }
 * ```
 */
export function createBearerAuthenticator<U>(
  options: BearerAuthenticatorOptions<U>,
): BearerAuthenticator<U> {
  const fn = "createBearerAuthenticator";
  requireObjectOption(fn, options, "jwt", ["verify"], "pass `createJwtIssuer({ secrets })`");
  requireObjectOption(
    fn,
    options,
    "apiKeys",
    ["findByDigest", "touchLastUsed"],
    "pass the API key store, e.g. `new SqlApiKeyStore(database)` from @tessera/bearer/sql",
  );
  requireFunctionOption(fn, options, "findUser", "pass `(id) => users.findById(id)`");
  const clock = options.clock ?? systemClock;

  async function authenticateJwt(token: string): Promise<Result<BearerIdentity<U>, BearerFailure>> {
    const verified = await options.jwt.verify(token);
    if (!verified.ok) return verified;
    const userId = pathId(verified.value.subject);
    if (userId === undefined) return fail("invalid-claims");
    const user = await options.findUser(userId);
    if (user === undefined) return fail("unknown-user");
    const changedAt = options.credentialsChangedAt?.(user);
    if (signedInBeforeCredentialsChanged(verified.value.issuedAt * 1000, changedAt)) {
      return fail("credentials-changed");
    }
    const { authentication } = verified.value;
    if (authentication?.actor !== undefined) {
      const issuedAt = verified.value.issuedAt * 1000;
      const vouched = await options.checkActor?.(authentication.actor, user, issuedAt);
      if (vouched !== true) return fail("actor-refused");
    }
    return ok({ user, credential: "jwt", authentication });
  }

  async function findKeyHolder(
    digest: string,
  ): Promise<Result<ApiKeyHolder<U>, "unknown-api-key" | "unknown-user">> {
    if (options.findKeyHolder) {
      const holder = await options.findKeyHolder(digest);
      return holder ? ok(holder) : fail("unknown-api-key");
    }
    const key = await options.apiKeys.findByDigest(digest);
    if (!key) return fail("unknown-api-key");
    const user = await options.findUser(key.userId);
    return user === undefined ? fail("unknown-user") : ok({ key, user });
  }

  async function authenticateApiKey(
    token: string,
  ): Promise<Result<BearerIdentity<U>, BearerFailure>> {
    if (!API_KEY_SHAPE.test(token)) return fail("unknown-api-key");
    // The secret is only ever hashed: the store compares digests, whose timing reveals
    // nothing an attacker can steer towards the secret.
    const holder = await findKeyHolder(sha256Hex(token));
    if (!holder.ok) return holder;
    const { key, user } = holder.value;
    await touchWhenStale(key.lastUsedAt, clock(), (usedAt, staleAt) =>
      options.apiKeys.touchLastUsed(key.id, usedAt, staleAt),
    );
    return ok({ user, credential: "api_key", apiKeyId: key.id });
  }

  return {
    async authenticate(request) {
      const token = readBearerToken(request.headers.get("authorization"));
      if (!token.ok) return token;
      return token.value.includes(".")
        ? authenticateJwt(token.value)
        : authenticateApiKey(token.value);
    },
  };
}
