import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jwksRoute } from "../src/jwks-route.js";
import { createJwtIssuer } from "../src/jwt.js";
import type { AsymmetricJwtAlgorithm } from "../src/jwt-algorithm.js";
import { type KeySet, keySet, rotateSigningKey } from "../src/keys/key-set.js";
import { MemorySigningKeyStore } from "../src/keys/memory-signing-key-store.js";
import { remoteJwtVerifier } from "../src/remote-jwt-verifier.js";

const ISSUER = "https://app.example";

// The issuing app: an EdDSA key set and an ES256 one, each served on 127.0.0.1 by node:http
// through jwksRoute, as another service would fetch it.
interface App {
  readonly store: MemorySigningKeyStore;
  readonly keys: KeySet;
  readonly jwksUrl: string;
  readonly server: Server;
  fetches: number;
}
const apps = new Map<AsymmetricJwtAlgorithm, App>();

async function startApp(algorithm: AsymmetricJwtAlgorithm): Promise<App> {
  const store = new MemorySigningKeyStore();
  const keys = await keySet({ algorithm, store, refreshIntervalMs: 0 });
  const route = jwksRoute(keys);
  const app = { store, keys, fetches: 0 } as { -readonly [K in keyof App]: App[K] };
  app.server = createServer(async (incoming, outgoing) => {
    app.fetches++;
    if (incoming.url !== route.path) {
      outgoing.writeHead(404).end();
      return;
    }
    const response = await route.handle(new Request(`http://127.0.0.1${incoming.url}`), {
      params: {},
      clientAddress: "127.0.0.1",
    });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(await response.text());
  });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  const { port } = app.server.address() as AddressInfo;
  app.jwksUrl = `http://127.0.0.1:${port}${route.path}`;
  return app;
}

beforeAll(async () => {
  for (const algorithm of ["EdDSA", "ES256"] as const)
    apps.set(algorithm, await startApp(algorithm));
});
afterAll(async () => {
  for (const app of apps.values()) {
    await new Promise((resolve) => app.server.close(resolve));
  }
});

describe.each(["EdDSA", "ES256"] as const)("%s tokens in another service", (algorithm) => {
  const app = () => apps.get(algorithm)!;
  const issuer = () =>
    createJwtIssuer({ algorithm, keys: app().keys, issuer: ISSUER, audience: "api" });

  it("verify through the served key set with jose's remote set", async () => {
    const verifier = remoteJwtVerifier({ jwksUrl: app().jwksUrl, issuer: ISSUER, audience: "api" });
    const { token } = await issuer().issue(42, { at: Date.now(), factors: ["password", "totp"] });
    const verified = await verifier.verify(token);
    expect(verified.ok && verified.value.subject).toBe("42");
    expect(verified.ok && verified.value.authentication?.factors).toEqual(["password", "totp"]);
  });

  it("refuse another issuer, another audience, a tampered token and garbage", async () => {
    const { token } = await issuer().issue(1);
    const url = app().jwksUrl;
    expect(
      await remoteJwtVerifier({ jwksUrl: url, issuer: "https://x.example" }).verify(token),
    ).toEqual({
      ok: false,
      reason: "invalid-claims",
    });
    expect(
      await remoteJwtVerifier({ jwksUrl: url, issuer: ISSUER, audience: "other" }).verify(token),
    ).toEqual({ ok: false, reason: "invalid-claims" });
    const verifier = remoteJwtVerifier({ jwksUrl: url, issuer: ISSUER, audience: "api" });
    const [header, payload, signature] = token.split(".");
    const flipped = `${signature!.startsWith("A") ? "B" : "A"}${signature!.slice(1)}`;
    expect(await verifier.verify(`${header}.${payload}.${flipped}`)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
    expect(await verifier.verify("not.a.token")).toEqual({ ok: false, reason: "malformed-token" });
  });

  it("fetch the set again for a rotated key's kid; refuse a kid the set does not hold", async () => {
    const verifier = remoteJwtVerifier({
      jwksUrl: app().jwksUrl,
      issuer: ISSUER,
      audience: "api",
      cooldownMs: 0,
    });
    const before = await issuer().issue(1);
    expect((await verifier.verify(before.token)).ok).toBe(true);
    const fetches = app().fetches;
    await rotateSigningKey(app().store, algorithm);
    await app().keys.refresh();
    const after = await issuer().issue(2);
    expect((await verifier.verify(after.token)).ok).toBe(true);
    expect(app().fetches).toBe(fetches + 1);
    expect((await verifier.verify(before.token)).ok).toBe(true);
    // A token of a key set this app never served.
    const stranger = await keySet({ algorithm, store: new MemorySigningKeyStore() });
    const { token } = await createJwtIssuer({
      algorithm,
      keys: stranger,
      issuer: ISSUER,
      audience: "api",
    }).issue(1);
    expect(await verifier.verify(token)).toEqual({ ok: false, reason: "unknown-key" });
  });
});

describe("remoteJwtVerifier's checks", () => {
  it("refuses an HS256 token made with a served public key as its secret", async () => {
    const app = apps.get("EdDSA")!;
    const { SignJWT } = await import("jose");
    const jwk = (await app.keys.publicJwks()).keys[0]!;
    const forged = await new SignJWT({ iss: ISSUER })
      .setProtectedHeader({ alg: "HS256", kid: jwk.kid })
      .setSubject("1")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(JSON.stringify(jwk)));
    const verifier = remoteJwtVerifier({ jwksUrl: app.jwksUrl, issuer: ISSUER });
    expect(await verifier.verify(forged)).toEqual({ ok: false, reason: "algorithm-not-allowed" });
  });

  it("needs an issuer", () => {
    expect(() => remoteJwtVerifier({ jwksUrl: "http://127.0.0.1/", issuer: "" })).toThrow(
      RangeError,
    );
  });
});

// PyJWT reads the served set and verifies our tokens, as the HS256 tokens' spec says a Python
// service would. Debian's python3-jwt and python3-cryptography provide it; without them the
// cases are skipped.
const PYJWT_VERIFY = `
import json, sys, jwt
jwks, token, issuer, audience = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
kid = jwt.get_unverified_header(token)["kid"]
jwk = next(key for key in jwks["keys"] if key["kid"] == kid)
key = jwt.PyJWK(jwk)
try:
    claims = jwt.decode(token, key.key, algorithms=[jwk["alg"]], issuer=issuer, audience=audience)
    print(json.dumps({"sub": claims["sub"], "alg": jwk["alg"]}))
except jwt.InvalidTokenError as error:
    print(json.dumps({"refused": type(error).__name__}))
`;

function findPyJwt(): string | undefined {
  for (const python of ["python3", "/usr/bin/python3"]) {
    try {
      execFileSync(python, ["-c", "import jwt, cryptography"], { stdio: "ignore" });
      return python;
    } catch {}
  }
  return undefined;
}
const python = findPyJwt();

describe.skipIf(!python)("PyJWT verifies EdDSA and ES256 tokens with the served key set", () => {
  const pyjwt = (jwks: unknown, token: string, audience = "api") =>
    JSON.parse(
      execFileSync(python!, ["-c", PYJWT_VERIFY, JSON.stringify(jwks), token, ISSUER, audience], {
        encoding: "utf8",
      }),
    );

  it.each(["EdDSA", "ES256"] as const)("%s", async (algorithm) => {
    const app = apps.get(algorithm)!;
    const jwks = await (await fetch(app.jwksUrl)).json();
    const issuer = createJwtIssuer({ algorithm, keys: app.keys, issuer: ISSUER, audience: "api" });
    const { token } = await issuer.issue(42);
    expect(pyjwt(jwks, token)).toEqual({ sub: "42", alg: algorithm });
    expect(pyjwt(jwks, token, "other")).toEqual({ refused: "InvalidAudienceError" });
    const [header, payload] = token.split(".");
    const forged = `${header}.${payload}.${token.split(".")[2]!.replace(/^./, (c) => (c === "A" ? "B" : "A"))}`;
    expect(pyjwt(jwks, forged)).toEqual({ refused: "InvalidSignatureError" });
  });
});
