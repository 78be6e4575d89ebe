/** What a sign-in leaves with the client: the bearer token, and the refresh token if one came. */
export interface TokenPair {
  /** The JWT sent as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** Exchanged at `POST /api/auth/token/refresh` for a new pair when the token is refused. */
  readonly refreshToken?: string | undefined;
}

/**
 * Where the client keeps its {@link TokenPair}: memory by default ({@link memoryTokenHolder}),
 * or wherever an app wants it (`sessionStorage`, a native app's secure store). Each method may
 * answer at once or with a promise.
 */
export interface TokenHolder {
  /** The pair held now, or undefined when signed out. */
  get(): TokenPair | undefined | Promise<TokenPair | undefined>;
  /** Keeps `pair` in place of the one held. */
  set(pair: TokenPair): void | Promise<void>;
  /** Forgets the pair: signed out. */
  clear(): void | Promise<void>;
}

/** A {@link TokenHolder} in this page's or process's memory: gone on reload. */
export function memoryTokenHolder(initial?: TokenPair): TokenHolder {
  let held = initial;
  return {
    get: () => held,
    set: (pair) => {
      held = pair;
    },
    clear: () => {
      held = undefined;
    },
  };
}
