// Generated from the OpenAPI document of accountOpenApi() (@tessera/accounts) by
// `npm run generate:client -w @tessera/client`: do not edit. test/account-types.test.ts fails
// when it is stale.
export interface paths {
  "/api/auth/signup": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an account
     * @description Creates a user with a password and the operator columns sign-up accepts; other keys are ignored. Limited per client (10 a minute per client by default).
     */
    post: operations["signUp"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/token": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with email and password: a bearer token
     * @description The password way in. A user with a second factor gets a 403 `mfa_required` to answer at `POST /api/auth/token/mfa`. Limited per client (10 a minute per client by default). Wrong passwords are also counted per account.
     */
    post: operations["createToken"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/me": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The bearer's user
     * @description For a token or an API key.
     */
    get: operations["getCurrentUser"];
    put?: never;
    post?: never;
    /**
     * Delete the account
     * @description Confirmed with the password (a user without one, who signs in through a provider, gives the email instead); a user with a second factor also needs a token of a recent sign-in with it. The user's own token only, never an API key. Limited per client (10 a minute per client by default).
     */
    delete: operations["deleteCurrentUser"];
    options?: never;
    head?: never;
    /**
     * Change the profile
     * @description For a token or an API key. A column left out keeps its value; with none, nothing is written. A key that is no profile column is a 400 (`Failed to deserialize the JSON body into the target type: unknown field …`).
     */
    patch: operations["updateProfile"];
    trace?: never;
  };
  "/api/auth/reauthenticate": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A fresh token of a full sign-in, for changing credentials
     * @description The bearer's password again, answered as `POST /api/auth/token` answers it (a 403 `mfa_required` first for a user with a second factor). The user's own token only, never an API key. Limited per client (10 a minute per client by default).
     */
    post: operations["reauthenticate"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/password": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Change the password
     * @description The user's own token, never an API key. Where the app sends mail, a notice goes to the account's address. Limited per client (10 a minute per client by default).
     */
    post: operations["changePassword"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/email": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ask to move to a new address: a link is mailed to it
     * @description The user's own token, never an API key. The link goes to the new address and a notice to the current one; a pending request is replaced. Limited per client and per new address (10 a minute per client by default).
     */
    post: operations["requestEmailChange"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/email/confirm": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Use the link's token: the address changes
     * @description No bearer: the link is the proof. Limited per client (10 a minute per client by default).
     */
    post: operations["confirmEmailChange"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/email_code": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mail a sign-in code
     * @description The same answer for any address, so no account is revealed; an account gets a code valid 10 minutes, and its previous code stops. Limited per client and per address (10 a minute per client by default).
     */
    post: operations["requestEmailCode"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/token/email_code": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with a mailed code: a bearer token
     * @description A code works once. A user with a second factor gets a 403 `mfa_required` to answer at `POST /api/auth/token/mfa`. Limited per client and per address (10 a minute per client by default).
     */
    post: operations["createTokenWithEmailCode"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/token/refresh": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Exchange a refresh token for a new token pair
     * @description The refresh token given is used up; the new access token carries the original sign-in (never a recent one), and the family's end does not move.
     */
    post: operations["refreshToken"];
    /**
     * Sign the app out: revoke the refresh token's family
     * @description The same 204 for a token it does not know, so the answer tells nothing.
     */
    delete: operations["revokeRefreshToken"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/mfa/totp": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a TOTP enrolment: a new key, pending until confirmed
     * @description Sign-in is unchanged until `POST /api/auth/mfa/totp/confirm`; starting again replaces a pending key.
     */
    post: operations["beginTotp"];
    /**
     * Turn TOTP off, its backup codes with it
     * @description Answers 204 as well when TOTP was not on.
     */
    delete: operations["disableTotp"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/mfa/totp/confirm": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Confirm the pending enrolment with a code from the app: TOTP is on */
    post: operations["confirmTotp"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/mfa/backup_codes": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** 10 new backup codes: the old ones stop working */
    post: operations["regenerateBackupCodes"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/token/mfa": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The second step of a sign-in: a code or a passkey for the `mfa_token`
     * @description Every answer counts against the `mfa_token` and against the account (from any address), before it is judged. A passkey that was the first step cannot answer its own second step.
     */
    post: operations["answerSecondFactor"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/token/mfa/options": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The WebAuthn options for answering the `mfa_token` with a passkey */
    post: operations["secondFactorPasskeyOptions"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/passkeys": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Your passkeys */
    get: operations["listPasskeys"];
    put?: never;
    /** Add a passkey: the browser's answer to the options of `POST /api/auth/passkeys/options` */
    post: operations["addPasskey"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/passkeys/options": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The WebAuthn options for adding a passkey */
    post: operations["passkeyCreationOptions"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/passkeys/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The passkey's id. */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove a passkey: it signs nobody in any more */
    delete: operations["removePasskey"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/passkeys/login/options": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The WebAuthn options for signing in with a passkey */
    post: operations["passkeySignInOptions"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/passkeys/login": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with a passkey
     * @description A passkey that verified its user (PIN, biometrics) is both factors; one that only saw a touch is one, and a user with a second factor then answers `mfa_required` with a code.
     */
    post: operations["signInWithPasskey"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/keys": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Your API keys, newest first, never their secrets */
    get: operations["listApiKeys"];
    put?: never;
    /** Make an API key: its secret is in this answer only */
    post: operations["createApiKey"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/keys/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The key's id. */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete an API key: its next request is a 401
     * @description A key may delete itself or another key of its user.
     */
    delete: operations["deleteApiKey"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/sessions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your signed-in browsers, most recently seen first, then your apps, newest first
     * @description Apps signed in before the credentials last changed are left out: they are signed out.
     */
    get: operations["listDevices"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/sessions/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The device's id, `browser-<n>` or `app-<n>`; any other is a 404. */
        id: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Sign a device out: a browser at its next request, an app's refresh token now */
    delete: operations["endDevice"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Find users, newest first */
    get: operations["adminListUsers"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    /** One user, with their factors, devices, keys and last sign-in */
    get: operations["adminGetUser"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users/{id}/ban": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ban a user: their sign-ins end, and none is let in while it lasts
     * @description Ends the user's tokens and sessions and deletes their devices in the same change; their API keys stay, refused while the ban is in force. Recorded as `user.banned`, the operator its actor. The body is read before the user is looked up.
     */
    post: operations["adminBanUser"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users/{id}/unban": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Lift a user's ban
     * @description Takes no body. Recorded as `user.unbanned`, the operator its actor; a user without a ban is answered the same.
     */
    post: operations["adminUnbanUser"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users/{id}/sessions/revoke": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * End every token and session of a user
     * @description Takes no body. Their API keys stay; their devices are deleted. Their password signs them in again. Recorded as `user.session_revoked`.
     */
    post: operations["adminRevokeUserSessions"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/users/{id}/impersonate": {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Act as a user: a token for them, carrying the operator
     * @description A token for the user (its `act` claim names the operator; `Cache-Control: no-store`) of at most 3600 seconds and no refresh token. Routes that change credentials or factors refuse it (403 `impersonation_not_allowed`). It ends with `POST /api/admin/impersonation/stop`, when the operator stops being one, or when the user is banned. Recorded as `user.impersonation_started`.
     */
    post: operations["adminImpersonateUser"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/impersonation/stop": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Stop acting as a user
     * @description Called with the token of `…/impersonate`, takes no body: every token the operator was given to act as a user stops working. Recorded as `user.impersonation_stopped`.
     */
    post: operations["adminStopImpersonation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/admin/audit": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The audit trail, newest first
     * @description Empty when the app keeps no audit trail.
     */
    get: operations["adminListAuditEvents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/auth/activity": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your audit events, newest first
     * @description Every event about the bearer's account, from a token or an API key, paged as every listing.
     */
    get: operations["listActivity"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Error: {
      error: {
        /** @description A stable snake_case word for programs to act on; the message may change. */
        code: string;
        message: string;
        status: number;
        /** @description Each failing input name with all of its messages. */
        fields?: {
          [key: string]: string[];
        };
      };
    };
    ValidationError: {
      error: {
        /** @constant */
        code: "validation_failed";
        /** @constant */
        message: "Validation failed";
        /** @constant */
        status: 422;
        /** @description Each failing input name with all of its messages. */
        fields: {
          [key: string]: string[];
        };
      };
    };
    Token: {
      /** @description A JWT for `Authorization: Bearer <token>`. */
      token: string;
      /** @constant */
      token_type: "Bearer";
      /** @description Seconds the token is valid. */
      expires_in: number;
      /** @description Only when the request asked for one (`"refresh": true`) and the app issues them: exchange it at `POST /api/auth/token/refresh`. Shown this once. */
      refresh_token?: string;
      /** @description Seconds until the refresh token's family ends (never extended). */
      refresh_expires_in?: number;
    };
    /** @description The credentials are right but the account has a second factor: answer it at `POST /api/auth/token/mfa` with the `mfa_token` (valid 5 minutes) and one of `methods`. */
    MfaRequired: {
      error: {
        /** @constant */
        code: "mfa_required";
        message: string;
        /** @constant */
        status: 403;
      };
      mfa_token: string;
      methods: ("totp" | "backup_code" | "passkey")[];
    };
    User: {
      id: number;
      /** @description Normalized: NFKC, trimmed, lower-case. */
      email: string;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      created_at: string;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      updated_at: string;
    };
    UserWithFactors: {
      id: number;
      /** @description Normalized: NFKC, trimmed, lower-case. */
      email: string;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      created_at: string;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      updated_at: string;
      /** @description Only in an app with second factors or passkeys: whether TOTP is on, and how many passkeys the user has. */
      mfa?: {
        totp: boolean;
        passkeys: number;
      };
    };
    TotpSetup: {
      /** @description The key in base32 without padding, for typing in by hand. */
      secret: string;
      /** @description The `otpauth://` URI for an authenticator app (SHA-1, 6 digits, 30 s). */
      uri: string;
      /** @description The URI as a QR code: an SVG document, no script, no external reference. */
      qr_svg: string;
    };
    /** @description Shown this once: only their digests are kept. Each one answers one second step. */
    BackupCodes: {
      backup_codes: string[];
    };
    /** @description A passkey of the user: never its public key or signature counter. */
    Passkey: {
      id: number;
      name: string;
      /**
       * Format: date-time
       * @description UTC, ISO 8601.
       */
      created_at: string;
      /**
       * Format: date-time
       * @description UTC, ISO 8601.
       */
      last_used_at: string | null;
    };
    /** @description `PublicKeyCredentialCreationOptionsJSON` for `navigator.credentials.create()`: resident key and user verification preferred, the user's passkeys excluded. */
    PasskeyCreationOptions: {
      rp: {
        name: string;
        id?: string;
      };
      user: {
        id: string;
        name: string;
        displayName: string;
      };
      challenge: string;
      pubKeyCredParams: {
        alg: number;
        /** @constant */
        type: "public-key";
      }[];
      /** @constant */
      timeout?: 300000;
      excludeCredentials?: {
        id: string;
        /** @constant */
        type: "public-key";
      }[];
    };
    /** @description `PublicKeyCredentialRequestOptionsJSON` for `navigator.credentials.get()`, user verification preferred. */
    PasskeyRequestOptions: {
      challenge: string;
      rpId?: string;
      /** @constant */
      timeout?: 300000;
      allowCredentials?: {
        id: string;
        /** @constant */
        type: "public-key";
      }[];
      /** @enum {unknown} */
      userVerification?: "required" | "preferred" | "discouraged";
    };
    /** @description `RegistrationResponseJSON`: what `navigator.credentials.create()` answered. */
    PasskeyRegistrationResponse: {
      id: string;
      rawId: string;
      /** @constant */
      type: "public-key";
      response: {
        clientDataJSON: string;
        attestationObject: string;
      };
      clientExtensionResults?: Record<string, never>;
    };
    /** @description `AuthenticationResponseJSON`: what `navigator.credentials.get()` answered. */
    PasskeyAuthenticationResponse: {
      id: string;
      rawId: string;
      /** @constant */
      type: "public-key";
      response: {
        clientDataJSON: string;
        authenticatorData: string;
        signature: string;
      };
      clientExtensionResults?: Record<string, never>;
    };
    ApiKey: {
      id: number;
      user_id: number;
      name: string;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      last_used_at: string | null;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      created_at: string;
    };
    Device: {
      id: string;
      /** @enum {unknown} */
      kind: "browser" | "app";
      user_agent: string | null;
      ip_address: string | null;
      /** @description The sign-in, UTC, `YYYY-MM-DD HH:MM:SS`. */
      created_at: string;
      /** @description A browser's last request (written at most once an hour), an app's last refresh; UTC, `YYYY-MM-DD HH:MM:SS`. */
      last_used_at: string;
      /** @description What signed it in, first step first (`password`, `magic_link`, `email_code`, `oauth`, `passkey`, then `totp`, `backup_code`, `passkey` or `user_verification`); empty when not recorded. */
      factors: string[];
    };
    /** @description A user as an operator sees one: the public form (never the password digest nor a secret operator column), with the role, confirmation and ban. */
    AdminUser: {
      id: number;
      email: string;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      created_at: string;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      updated_at: string;
      /**
       * @description The platform role: `admin` (granted with `tessera admin grant`) or `user`.
       * @enum {unknown}
       */
      role: "user" | "admin";
      /** @description When the address was confirmed. */
      confirmed_at: string | null;
      /** @description The user's ban while one is recorded (lifted: null); it may have ended. */
      ban: {
        reason: string;
        /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
        at: string;
        /** @description When it ends (UTC); null: until lifted. */
        until: string | null;
        /** @description Whether it is in force now: a ban whose end has passed is kept, not active. */
        active: boolean;
      } | null;
    };
    /** @description A user as an operator sees one, with their factors, devices, keys and last sign-in. */
    AdminUserDetails: {
      id: number;
      email: string;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      created_at: string;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      updated_at: string;
      /**
       * @description The platform role: `admin` (granted with `tessera admin grant`) or `user`.
       * @enum {unknown}
       */
      role: "user" | "admin";
      /** @description When the address was confirmed. */
      confirmed_at: string | null;
      /** @description The user's ban while one is recorded (lifted: null); it may have ended. */
      ban: {
        reason: string;
        /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
        at: string;
        /** @description When it ends (UTC); null: until lifted. */
        until: string | null;
        /** @description Whether it is in force now: a ban whose end has passed is kept, not active. */
        active: boolean;
      } | null;
      /** @description Whether the user is an operator: the `admin` role, or a confirmed `ADMIN_EMAILS` address. */
      admin: boolean;
      /** @description The second factors turned on; null when the app has none. */
      mfa: {
        totp: boolean;
        passkeys: number;
      } | null;
      /** @description Signed-in devices; null without the device list. */
      devices: number | null;
      api_keys: number;
      /** @description The latest `user.signed_in` event; null for none or without an audit trail. */
      last_sign_in: components["schemas"]["AuditEvent"] | null;
    };
    /** @description Why, and until when. Other keys are ignored. */
    AdminBan: {
      /** @description Trimmed, then 1 to 500 characters (422 otherwise); kept with the ban and in the audit trail. */
      reason: string;
      /** @description When the ban ends, UTC `YYYY-MM-DD HH:MM:SS`, in the future (422 otherwise). Null, absent or empty: until lifted. */
      until?: string | null;
    } & {
      [key: string]: unknown;
    };
    /** @description One event of the audit trail: what changed, about whom, by whom, from where. */
    AuditEvent: {
      /** @description Ascending in time: a later event has a greater id. */
      id: number;
      /** @description UTC, `YYYY-MM-DD HH:MM:SS`. */
      at: string;
      /**
       * @description What happened: one of the account events (see `examples`), or another package's or the app's own (`organization.member_added`).
       * @example user.signed_up
       * @example user.signed_in
       * @example user.sign_in_failed
       * @example user.signed_out
       * @example user.password_changed
       * @example user.password_reset
       * @example user.email_change_requested
       * @example user.email_changed
       * @example user.mfa_enabled
       * @example user.mfa_disabled
       * @example user.backup_codes_regenerated
       * @example user.passkey_added
       * @example user.passkey_removed
       * @example user.api_key_created
       * @example user.api_key_deleted
       * @example user.session_revoked
       * @example user.throttled
       * @example user.banned
       * @example user.unbanned
       * @example user.role_changed
       * @example user.impersonation_started
       * @example user.impersonation_stopped
       * @example user.deleted
       */
      type: string;
      /** @description The user the event is about; null for an address with no account. */
      user_id: number | null;
      /** @description Who made the change when it was not the user (an operator, an organization's owner); null otherwise. */
      actor_id: number | null;
      /** @description The client's address, as the app reads it (`TRUST_PROXY` applied). */
      ip: string | null;
      /** @description The client's `User-Agent`, cut to 256 characters. */
      user_agent: string | null;
      /** @description What else the event records (never a secret), by name. */
      details: {
        [key: string]: (string | number | boolean | null) | string[];
      };
    };
  };
  responses: {
    /** @description A request that cannot be read: a JSON body that is not `application/json` in UTF-8, larger than 1048576 bytes, not JSON, not an object, without a required key, with a value of the wrong JSON type or an enum value outside its list (`Failed to deserialize the JSON body into the target type: <reason>`); a file upload that is not multipart; a bad query parameter. */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": {
         *         "code": "bad_request",
         *         "message": "Failed to deserialize the JSON body into the target type: missing field `title`",
         *         "status": 400
         *       }
         *     }
         */
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Missing, malformed, expired or revoked credentials; or the account was deleted while the request ran. */
    Unauthorized: {
      headers: {
        "WWW-Authenticate"?: "Bearer";
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": {
         *         "code": "unauthenticated",
         *         "message": "Unauthorized",
         *         "status": 401
         *       }
         *     }
         */
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Nothing of yours at this address: another user's answers the same as a missing one. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": {
         *         "code": "not_found",
         *         "message": "Not found",
         *         "status": 404
         *       }
         *     }
         */
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Every failing field at once, with its messages. */
    ValidationFailed: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": {
         *         "code": "validation_failed",
         *         "message": "Validation failed",
         *         "status": 422,
         *         "fields": {
         *           "title": [
         *             "can't be blank"
         *           ]
         *         }
         *       }
         *     }
         */
        "application/json": components["schemas"]["ValidationError"];
      };
    };
    /** @description Too many requests from this client (or for this account) in the window: wait `Retry-After` seconds. */
    TooManyRequests: {
      headers: {
        /** @description Seconds to wait before trying again. */
        "Retry-After": string;
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "error": {
         *         "code": "rate_limited",
         *         "message": "Too many requests. Try again later.",
         *         "status": 429
         *       }
         *     }
         */
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Signed in: a bearer token (`Cache-Control: no-store`), with a refresh token when asked for. */
    Token: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Token"];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  signUp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Normalized (NFKC, trimmed, lower-case), then checked. */
          email: string;
          /** @description 8 to 128 characters (code points), and never one seen in a data breach where the app checks (`has appeared in a data breach; choose another`); else a 422 on `password`. */
          password: string;
          /** @description Required in an app with a captcha (Turnstile or hCaptcha): the widget's token. Missing, refused or not verifiable is a 400 `captcha_failed`. */
          captcha_token?: string;
        };
      };
    };
    responses: {
      /** @description The user. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["User"];
        };
      };
      /** @description A body that cannot be read (`Failed to deserialize the JSON body into the target type: <reason>`: not JSON, a required key missing or not text, text holding NUL); in an app with a captcha, `captcha_failed`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "bad_request" | "captcha_failed";
            };
          };
        };
      };
      /** @description Every failing field at once: `email` blank, invalid or taken; `password` blank, outside the policy or breached; an operator column's own rules. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"] & {
            error?: {
              fields?: Record<string, never>;
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  createToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          email: string;
          password: string;
          /**
           * @description Also answer a `refresh_token` (with `refresh_expires_in`), in an app that issues them.
           * @default false
           */
          refresh?: boolean;
          /** @description Required in an app with a captcha (Turnstile or hCaptcha): the widget's token. Missing, refused or not verifiable is a 400 `captcha_failed`. */
          captcha_token?: string;
        };
      };
    };
    responses: {
      200: components["responses"]["Token"];
      /** @description A body that cannot be read (`Failed to deserialize the JSON body into the target type: <reason>`: not JSON, a required key missing or not text, text holding NUL); in an app with a captcha, `captcha_failed`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "bad_request" | "captcha_failed";
            };
          };
        };
      };
      /** @description The email and password match no account (an unknown email answers alike). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "invalid_credentials";
            };
          };
        };
      };
      /** @description The account has a second factor (a `MfaRequired` body: answer it at `POST /api/auth/token/mfa`), or an operator banned it. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | (components["schemas"]["Error"] & {
                error?: {
                  /** @enum {unknown} */
                  code?: "mfa_required" | "account_banned";
                };
              })
            | components["schemas"]["MfaRequired"];
        };
      };
      /** @description Too many requests from this client (`rate_limited`, 10 a minute per client by default), or too many wrong passwords for this account from any address (`account_throttled`): wait `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          "Retry-After": string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "rate_limited" | "account_throttled";
            };
          };
        };
      };
    };
  };
  getCurrentUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The user, with `mfa` in an app with second factors or passkeys. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["UserWithFactors"];
        };
      };
      401: components["responses"]["Unauthorized"];
    };
  };
  deleteCurrentUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json":
          | {
              /** @description The current password. */
              password: string;
            }
          | {
              /** @description The account's address. */
              email: string;
            };
      };
    };
    responses: {
      /** @description Deleted, with what the user owned. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description A wrong password or email, an API key, an operator acting as the user, or a token without the recent second factor. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "invalid_credentials"
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "reauthentication_required";
            };
          };
        };
      };
      /** @description The app kept the account (its `beforeUserDeleted` hook): its own code and message, such as `last_owner` while the user is an organization's only owner. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  updateProfile: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description The user as changed. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["User"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
    };
  };
  reauthenticate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          password: string;
          /**
           * @description Also answer a `refresh_token` (with `refresh_expires_in`), in an app that issues them.
           * @default false
           */
          refresh?: boolean;
        };
      };
    };
    responses: {
      200: components["responses"]["Token"];
      400: components["responses"]["BadRequest"];
      /** @description No valid bearer (`unauthenticated`, with `WWW-Authenticate: Bearer`), or a wrong password (`invalid_credentials`). */
      401: {
        headers: {
          /** @description Only with `unauthenticated`. */
          "WWW-Authenticate"?: "Bearer";
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "unauthenticated" | "invalid_credentials";
            };
          };
        };
      };
      /** @description An API key or an operator acting as the user; a second factor due (a `MfaRequired` body); a banned account. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | (components["schemas"]["Error"] & {
                error?: {
                  /** @enum {unknown} */
                  code?:
                    | "api_key_not_allowed"
                    | "impersonation_not_allowed"
                    | "mfa_required"
                    | "account_banned";
                };
              })
            | components["schemas"]["MfaRequired"];
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  changePassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Required from a user with a password (missing or not text: a 400); a user without one leaves it out and needs a full sign-in of the last 10 minutes. */
          current_password?: string;
          /** @description 8 to 128 characters (code points), and never one seen in a data breach where the app checks (`has appeared in a data breach; choose another`); else a 422 on `password`. */
          password: string;
          /**
           * @description End every token and session signed in before the change (API keys stay).
           * @default true
           */
          sign_out_others?: boolean;
        };
      };
    };
    responses: {
      /** @description Changed: a fresh token standing for the same sign-in (`Cache-Control: no-store`), never a refresh token. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Token"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description An API key or an operator acting as the user (never allowed); a wrong `current_password` (`invalid_credentials`); a token without a recent sign-in with the second factor, for a user with one, or without a full sign-in of the last 10 minutes, for a user without a password (`reauthentication_required`: sign in again or call `POST /api/auth/reauthenticate`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "invalid_credentials"
                | "reauthentication_required";
            };
          };
        };
      };
      /** @description The new password is blank, outside the policy, or breached. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"] & {
            error?: {
              fields?: Record<string, never>;
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  requestEmailChange: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The new address (normalized, then checked). */
          email: string;
          /** @description Required from a user with a password (missing or not text: a 400); a user without one leaves it out and needs a full sign-in of the last 10 minutes. */
          current_password?: string;
        };
      };
    };
    responses: {
      /** @description The link is on its way; nothing changed yet. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Check your new address for a confirmation link."
           *     }
           */
          "application/json": {
            message: string;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description An API key or an operator acting as the user (never allowed); a wrong `current_password` (`invalid_credentials`); a token without a recent sign-in with the second factor, for a user with one, or without a full sign-in of the last 10 minutes, for a user without a password (`reauthentication_required`: sign in again or call `POST /api/auth/reauthenticate`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "invalid_credentials"
                | "reauthentication_required";
            };
          };
        };
      };
      /** @description The new address is blank, invalid, or taken (the user's own included). */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"] & {
            error?: {
              fields?: Record<string, never>;
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
      /** @description The app sends mail but this deployment configures no delivery (`missingMailer`): the message names the setting. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "Email cannot be sent: no mail delivery is configured (MAIL_ADAPTER).",
           *         "status": 500
           *       }
           *     }
           */
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  confirmEmailChange: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The token of the mailed link. */
          token: string;
        };
      };
    };
    responses: {
      /** @description The user as changed. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["User"];
        };
      };
      400: components["responses"]["BadRequest"];
      /** @description `token` for an unknown, used, replaced or expired link; `email` when another account took the address meanwhile. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"] & {
            error?: {
              fields?: Record<string, never>;
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  requestEmailCode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          email: string;
          /** @description Required in an app with a captcha (Turnstile or hCaptcha): the widget's token. Missing, refused or not verifiable is a 400 `captcha_failed`. */
          captcha_token?: string;
        };
      };
    };
    responses: {
      /** @description Taken: a code is mailed if an account uses the address. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "If an account uses that address, a sign-in code is on its way."
           *     }
           */
          "application/json": {
            message: string;
          };
        };
      };
      /** @description A body that cannot be read (`Failed to deserialize the JSON body into the target type: <reason>`: not JSON, a required key missing or not text, text holding NUL); in an app with a captcha, `captcha_failed`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "bad_request" | "captcha_failed";
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
      /** @description The app sends mail but this deployment configures no delivery (`missingMailer`): the message names the setting. */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "internal_error",
           *         "message": "Email cannot be sent: no mail delivery is configured (MAIL_ADAPTER).",
           *         "status": 500
           *       }
           *     }
           */
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createTokenWithEmailCode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          email: string;
          /** @description The six digits of the mail. */
          code: string;
          /**
           * @description Also answer a `refresh_token` (with `refresh_expires_in`), in an app that issues them.
           * @default false
           */
          refresh?: boolean;
        };
      };
    };
    responses: {
      200: components["responses"]["Token"];
      400: components["responses"]["BadRequest"];
      /** @description No account with that address, or a wrong, used, replaced or expired code; any code after 5 wrong ones. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "invalid_credentials";
            };
          };
        };
      };
      /** @description The account has a second factor (a `MfaRequired` body: answer it at `POST /api/auth/token/mfa`), or an operator banned it. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | (components["schemas"]["Error"] & {
                error?: {
                  /** @enum {unknown} */
                  code?: "mfa_required" | "account_banned";
                };
              })
            | components["schemas"]["MfaRequired"];
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  refreshToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description From a way in asked with `refresh: true`, or from the last refresh. */
          refresh_token: string;
        };
      };
    };
    responses: {
      200: components["responses"]["Token"];
      400: components["responses"]["BadRequest"];
      /** @description A refresh token unknown, used (past the grace: its whole family is revoked), revoked or expired; or its user gone, banned, or with credentials changed since the sign-in (the family is revoked). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "invalid_credentials";
            };
          };
        };
      };
    };
  };
  revokeRefreshToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description From a way in asked with `refresh: true`, or from the last refresh. */
          refresh_token: string;
        };
      };
    };
    responses: {
      /** @description Revoked (or unknown). */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
    };
  };
  beginTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The account's password. */
          password: string;
        };
      };
    };
    responses: {
      /** @description The key to add to the app. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["TotpSetup"];
        };
      };
      400: components["responses"]["BadRequest"];
      /** @description No valid bearer token (`unauthenticated`, with `WWW-Authenticate: Bearer`), or a wrong `password` (`invalid_credentials`). */
      401: {
        headers: {
          "WWW-Authenticate"?: "Bearer";
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "unauthenticated" | "invalid_credentials";
            };
          };
        };
      };
      /** @description Asked with an API key, by an operator acting as the user, or, for a user with a second factor on, with a token not made by a sign-in with it in the last 10 minutes (sign in again, or `POST /api/auth/reauthenticate`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "reauthentication_required";
            };
          };
        };
      };
      /** @description TOTP is already on. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "totp_already_enabled";
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  disableTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The account's password. */
          password: string;
        };
      };
    };
    responses: {
      /** @description TOTP and the backup codes are removed. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      /** @description No valid bearer token (`unauthenticated`, with `WWW-Authenticate: Bearer`), or a wrong `password` (`invalid_credentials`). */
      401: {
        headers: {
          "WWW-Authenticate"?: "Bearer";
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "unauthenticated" | "invalid_credentials";
            };
          };
        };
      };
      /** @description Asked with an API key, by an operator acting as the user, or, for a user with a second factor on, with a token not made by a sign-in with it in the last 10 minutes (sign in again, or `POST /api/auth/reauthenticate`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "reauthentication_required";
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  confirmTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description A code from the app: 6 digits (spaces allowed), of the current 30 s step or one either side. */
          code: string;
        };
      };
    };
    responses: {
      /** @description TOTP is on; its 10 backup codes. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["BackupCodes"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description No enrolment is pending. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "totp_not_pending";
            };
          };
        };
      };
      /** @description The code is not the app's current one. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"] & {
            error?: {
              fields?: Record<string, never>;
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  regenerateBackupCodes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The account's password. */
          password: string;
        };
      };
    };
    responses: {
      /** @description The new codes. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["BackupCodes"];
        };
      };
      400: components["responses"]["BadRequest"];
      /** @description No valid bearer token (`unauthenticated`, with `WWW-Authenticate: Bearer`), or a wrong `password` (`invalid_credentials`). */
      401: {
        headers: {
          "WWW-Authenticate"?: "Bearer";
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "unauthenticated" | "invalid_credentials";
            };
          };
        };
      };
      /** @description Asked with an API key, by an operator acting as the user, or, for a user with a second factor on, with a token not made by a sign-in with it in the last 10 minutes (sign in again, or `POST /api/auth/reauthenticate`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "reauthentication_required";
            };
          };
        };
      };
      /** @description TOTP is not on. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "totp_not_enabled";
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  answerSecondFactor: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json":
          | {
              /** @description The `mfa_token` of the 403 `mfa_required`: valid 5 minutes, void after 5 wrong answers. */
              mfa_token: string;
              /** @description A TOTP code (6 digits) or an unused backup code (`xxxxx-xxxxx`). Not read when `passkey` is there. */
              code?: string;
              /** @description What `navigator.credentials.get()` answered for the options of `POST /api/auth/token/mfa/options`. */
              passkey?: components["schemas"]["PasskeyAuthenticationResponse"];
              /** @description Ask for a refresh token as well (default false). */
              refresh?: boolean;
            }
          | {
              code: unknown;
            }
          | {
              passkey: unknown;
            };
      };
    };
    responses: {
      200: components["responses"]["Token"];
      400: components["responses"]["BadRequest"];
      /** @description A wrong answer, or an `mfa_token` unknown, expired, used or void: sign in again. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "invalid_credentials";
            };
          };
        };
      };
      /** @description An operator banned the account. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "account_banned";
            };
          };
        };
      };
      /** @description Too many requests from this client (`rate_limited`), or too many wrong answers for this account from any address (`account_throttled`): wait `Retry-After` seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          "Retry-After": string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "rate_limited" | "account_throttled";
            };
          };
        };
      };
    };
  };
  secondFactorPasskeyOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The `mfa_token` of the 403 `mfa_required`: valid 5 minutes, void after 5 wrong answers. */
          mfa_token: string;
        };
      };
    };
    responses: {
      /** @description For `navigator.credentials.get()`, allowing the user's passkeys; its answer goes to `POST /api/auth/token/mfa` as `passkey`. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["PasskeyRequestOptions"];
        };
      };
      400: components["responses"]["BadRequest"];
      /** @description The `mfa_token` is unknown, expired, used or void. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "invalid_credentials";
            };
          };
        };
      };
      /** @description The user has no passkey (or the first step was the passkey): answer with a code. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "no_passkey";
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  listPasskeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The passkeys. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Passkey"][];
        };
      };
      401: components["responses"]["Unauthorized"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  addPasskey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Trimmed; `Passkey` when left out or null. */
          name?: string | null;
          response: components["schemas"]["PasskeyRegistrationResponse"];
        };
      };
    };
    responses: {
      /** @description The passkey. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            id: number;
            name: string;
            /**
             * Format: date-time
             * @description UTC, ISO 8601.
             */
            created_at: string;
          };
        };
      };
      /** @description A body that cannot be read (`bad_request`), or a `response` that does not verify, answers no live challenge of yours or holds a passkey already added (`passkey_invalid`). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "bad_request" | "passkey_invalid";
            };
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      /** @description Asked with an API key, by an operator acting as the user, or with a token not made by a full sign-in (the password or a passkey that verified its user, and the second factor of a user who has one) in the last 10 minutes (sign in again, or `POST /api/auth/reauthenticate`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "reauthentication_required";
            };
          };
        };
      };
      /** @description A blank or too long name. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"] & {
            error?: {
              fields?: Record<string, never>;
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  passkeyCreationOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description For `navigator.credentials.create()`. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["PasskeyCreationOptions"];
        };
      };
      401: components["responses"]["Unauthorized"];
      /** @description Asked with an API key, by an operator acting as the user, or with a token not made by a full sign-in (the password or a passkey that verified its user, and the second factor of a user who has one) in the last 10 minutes (sign in again, or `POST /api/auth/reauthenticate`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "reauthentication_required";
            };
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  removePasskey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The passkey's id. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      /** @description Asked with an API key, by an operator acting as the user, or with a token not made by a full sign-in (the password or a passkey that verified its user, and the second factor of a user who has one) in the last 10 minutes (sign in again, or `POST /api/auth/reauthenticate`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "reauthentication_required";
            };
          };
        };
      };
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  passkeySignInOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The options, and the handle to send back with the answer. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            options: components["schemas"]["PasskeyRequestOptions"];
            /** @description The options' challenge. */
            challenge_id: string;
          };
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  signInWithPasskey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          challenge_id: string;
          /** @description Left out or unverifiable, it is a 401 as a wrong one is. */
          response: components["schemas"]["PasskeyAuthenticationResponse"];
          /** @description Ask for a refresh token as well (default false). */
          refresh?: boolean;
        };
      };
    };
    responses: {
      200: components["responses"]["Token"];
      400: components["responses"]["BadRequest"];
      /** @description The answer does not verify, its challenge is not live, or its passkey is not registered. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "invalid_credentials";
            };
          };
        };
      };
      /** @description The account has a second factor (a `MfaRequired` body: answer it at `POST /api/auth/token/mfa`), or an operator banned it. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json":
            | (components["schemas"]["Error"] & {
                error?: {
                  /** @enum {unknown} */
                  code?: "mfa_required" | "account_banned";
                };
              })
            | components["schemas"]["MfaRequired"];
        };
      };
      429: components["responses"]["TooManyRequests"];
    };
  };
  listApiKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The keys. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ApiKey"][];
        };
      };
      401: components["responses"]["Unauthorized"];
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Trimmed. */
          name: string;
        };
      };
    };
    responses: {
      /** @description The secret and the key (`Cache-Control: no-store`). */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description The secret: `Authorization: Bearer <key>`. */
            key: string;
            api_key: components["schemas"]["ApiKey"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description Asked with an API key (a key makes no key), by an operator acting as the user, or with a token not made by a full sign-in (the password or a passkey that verified its user, and the second factor of a user who has one) in the last 10 minutes (sign in again, or `POST /api/auth/reauthenticate`). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?:
                | "api_key_not_allowed"
                | "impersonation_not_allowed"
                | "reauthentication_required";
            };
          };
        };
      };
      /** @description A blank or too long name. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"] & {
            error?: {
              fields?: Record<string, never>;
            };
          };
        };
      };
    };
  };
  deleteApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The key's id. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      /** @description Asked by an operator acting as the user. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "impersonation_not_allowed";
            };
          };
        };
      };
      404: components["responses"]["NotFound"];
    };
  };
  listDevices: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The devices. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Device"][];
        };
      };
      401: components["responses"]["Unauthorized"];
    };
  };
  endDevice: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The device's id, `browser-<n>` or `app-<n>`; any other is a 404. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed out. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components["responses"]["Unauthorized"];
      /** @description Only the user's own token ends a device: not an API key, nor an operator acting as the user. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "api_key_not_allowed" | "impersonation_not_allowed";
            };
          };
        };
      };
      404: components["responses"]["NotFound"];
    };
  };
  adminListUsers: {
    parameters: {
      query?: {
        /** @description Only users whose email address (or a searched operator column) contains it, in any case. At most 254 UTF-16 code units, no NUL or lone surrogate (400 otherwise). */
        query?: string;
        /** @description Items per page, plain decimal digits (default 50). */
        limit?: number;
        /** @description Items to skip, plain decimal digits (default 0). Not with `after`. */
        offset?: number;
        /** @description Keyset paging: only items whose id is below this one, the last id of the page before. Not with `offset`. */
        after?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of users. */
      200: {
        headers: {
          /** @description When more items follow: `</api/admin/users?limit=<limit>&after=<last id>[&<filters>]>; rel="next"` (this page's limit, the request's other query parameters after the paging ones). */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AdminUser"][];
        };
      };
      /** @description A bad `limit`, `offset` or `after`, or both of the last two; a `query` over 254 characters or holding a NUL or a lone surrogate. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "bad_request";
            };
          };
        };
      };
      /** @description Not an operator with a token: no credentials, an expired or revoked token, an API key, or a user who is neither `admin` nor a confirmed `ADMIN_EMAILS` address. It is the answer of a path the app does not serve, so the route's existence is not revealed. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "not_found";
            };
          };
        };
      };
    };
  };
  adminGetUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The user. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AdminUserDetails"];
        };
      };
      /** @description Not an operator with a token: no credentials, an expired or revoked token, an API key, or a user who is neither `admin` nor a confirmed `ADMIN_EMAILS` address. It is the answer of a path the app does not serve, so the route's existence is not revealed; or no user of this id (a path id that is not an integer of 1 or more is none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "not_found";
            };
          };
        };
      };
    };
  };
  adminBanUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["AdminBan"];
      };
    };
    responses: {
      /** @description The user as banned. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AdminUser"];
        };
      };
      /** @description A body that cannot be read (not `application/json` in UTF-8, over 1048576 bytes, not JSON, not an object: `Failed to deserialize the JSON body into the target type: <reason>`), a `reason` that is not a string, or an `until` that is neither a string nor null. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "bad_request";
            };
          };
        };
      };
      /** @description Not an operator with a token: no credentials, an expired or revoked token, an API key, or a user who is neither `admin` nor a confirmed `ADMIN_EMAILS` address. It is the answer of a path the app does not serve, so the route's existence is not revealed; or no user of this id (a path id that is not an integer of 1 or more is none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "not_found";
            };
          };
        };
      };
      /** @description An operator cannot be banned: revoke the role first. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "admin_not_bannable";
            };
          };
        };
      };
      /** @description Every failing field at once: a `reason` blank or too long once trimmed, or holding a character that cannot be stored; an `until` that is not `YYYY-MM-DD HH:MM:SS` or not in the future. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": {
           *         "code": "validation_failed",
           *         "message": "Validation failed",
           *         "status": 422,
           *         "fields": {
           *           "reason": [
           *             "can't be blank"
           *           ],
           *           "until": [
           *             "must be a time in the future"
           *           ]
           *         }
           *       }
           *     }
           */
          "application/json": components["schemas"]["ValidationError"] & {
            error?: {
              fields?: Record<string, never>;
            };
          };
        };
      };
    };
  };
  adminUnbanUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The user, `ban` null. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AdminUser"];
        };
      };
      /** @description Not an operator with a token: no credentials, an expired or revoked token, an API key, or a user who is neither `admin` nor a confirmed `ADMIN_EMAILS` address. It is the answer of a path the app does not serve, so the route's existence is not revealed; or no user of this id (a path id that is not an integer of 1 or more is none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "not_found";
            };
          };
        };
      };
    };
  };
  adminRevokeUserSessions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ended. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not an operator with a token: no credentials, an expired or revoked token, an API key, or a user who is neither `admin` nor a confirmed `ADMIN_EMAILS` address. It is the answer of a path the app does not serve, so the route's existence is not revealed; or no user of this id (a path id that is not an integer of 1 or more is none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "not_found";
            };
          };
        };
      };
    };
  };
  adminImpersonateUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user's id. */
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The token to act as the user with. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Token"] & {
            expires_in?: number;
          };
        };
      };
      /** @description Not an operator with a token: no credentials, an expired or revoked token, an API key, or a user who is neither `admin` nor a confirmed `ADMIN_EMAILS` address. It is the answer of a path the app does not serve, so the route's existence is not revealed; or no user of this id (a path id that is not an integer of 1 or more is none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "not_found";
            };
          };
        };
      };
      /** @description Operators and banned users are never impersonated. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "not_impersonable";
            };
          };
        };
      };
    };
  };
  adminStopImpersonation: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Stopped. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not a token an operator acts as a user with (none, another token, an API key, or one already stopped or expired). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "not_found";
            };
          };
        };
      };
    };
  };
  adminListAuditEvents: {
    parameters: {
      query?: {
        /** @description Only the events about this user. */
        user_id?: number;
        /** @description Only the events of this type, e.g. `user.signed_in`. */
        type?: string;
        /** @description Items per page, plain decimal digits (default 50). */
        limit?: number;
        /** @description Items to skip, plain decimal digits (default 0). Not with `after`. */
        offset?: number;
        /** @description Keyset paging: only items whose id is below this one, the last id of the page before. Not with `offset`. */
        after?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of events. */
      200: {
        headers: {
          /** @description When more items follow: `</api/admin/audit?limit=<limit>&after=<last id>[&<filters>]>; rel="next"` (this page's limit, the request's other query parameters after the paging ones). */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AuditEvent"][];
        };
      };
      /** @description A bad `limit`, `offset` or `after`, or both of the last two; a `user_id` that is not an integer of 1 or more; a `type` that is not 1 to 100 of `a-z`, `0-9`, `_` and `.`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "bad_request";
            };
          };
        };
      };
      /** @description Not an operator with a token: no credentials, an expired or revoked token, an API key, or a user who is neither `admin` nor a confirmed `ADMIN_EMAILS` address. It is the answer of a path the app does not serve, so the route's existence is not revealed. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "not_found";
            };
          };
        };
      };
    };
  };
  listActivity: {
    parameters: {
      query?: {
        /** @description Items per page, plain decimal digits (default 50). */
        limit?: number;
        /** @description Items to skip, plain decimal digits (default 0). Not with `after`. */
        offset?: number;
        /** @description Keyset paging: only items whose id is below this one, the last id of the page before. Not with `offset`. */
        after?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of your events. */
      200: {
        headers: {
          /** @description When more items follow: `</api/auth/activity?limit=<limit>&after=<last id>[&<filters>]>; rel="next"` (this page's limit, the request's other query parameters after the paging ones). */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AuditEvent"][];
        };
      };
      /** @description A `limit`, `offset` or `after` that is not plain decimal digits in range, or both `offset` and `after`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] & {
            error?: {
              /** @enum {unknown} */
              code?: "bad_request";
            };
          };
        };
      };
      401: components["responses"]["Unauthorized"];
    };
  };
}
