// A passkey authenticator in software, for tests: an ES256 key pair (WebCrypto only, so the
// runtime smoke can use it on workerd), attestation "none", and the bytes a browser would send:
// clientDataJSON, authenticatorData with its flags and signature counter, the assertion's
// signature in DER. It signs whatever it is told, so tests can also forge, replay and tamper.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

/** Where a response claims to come from; each defaults to the authenticator's own. */
export interface ResponseClaims {
  readonly origin?: string;
  readonly rpId?: string;
  /** The counter to sign with; default: one more than the last. */
  readonly counter?: number;
  /** Whether the user was verified (PIN, biometrics); default true. */
  readonly userVerified?: boolean;
}

/** One credential of a software authenticator for `rpId`, used from `origin`. */
export class SoftwareAuthenticator {
  counter = 0;
  readonly credentialId: string;

  private constructor(
    private readonly keys: CryptoKeyPair,
    readonly origin: string,
    readonly rpId: string,
  ) {
    this.credentialId = isoBase64URL.fromBuffer(crypto.getRandomValues(new Uint8Array(16)));
  }

  /** A new credential with a fresh P-256 key. */
  static async create(origin: string, rpId = new URL(origin).hostname) {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    return new SoftwareAuthenticator(keys, origin, rpId);
  }

  /** What `navigator.credentials.create()` answers for `challenge` (attestation "none"). */
  async register(
    challenge: string,
    claims: ResponseClaims = {},
  ): Promise<RegistrationResponseJSON> {
    const clientDataJSON = clientData("webauthn.create", challenge, claims.origin ?? this.origin);
    const jwk = await crypto.subtle.exportKey("jwk", this.keys.publicKey);
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x ?? "")],
      [-3, isoBase64URL.toBuffer(jwk.y ?? "")],
    ]);
    const credentialId = isoBase64URL.toBuffer(this.credentialId);
    const attested = concat(
      new Uint8Array(16), // AAGUID: none
      new Uint8Array([credentialId.length >> 8, credentialId.length & 0xff]),
      credentialId,
      isoCBOR.encode(coseKey),
    );
    const authenticatorData = await this.authenticatorData(
      claims,
      FLAG_ATTESTED_CREDENTIAL,
      attested,
      claims.counter ?? this.counter,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, never>()],
        ["authData", authenticatorData],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ["internal"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  /** What `navigator.credentials.get()` answers for `challenge`; the counter moves on. */
  async authenticate(
    challenge: string,
    claims: ResponseClaims = {},
  ): Promise<AuthenticationResponseJSON> {
    const counter = claims.counter ?? this.counter + 1;
    this.counter = Math.max(this.counter, counter);
    const clientDataJSON = clientData("webauthn.get", challenge, claims.origin ?? this.origin);
    const authenticatorData = await this.authenticatorData(claims, 0, new Uint8Array(), counter);
    const clientDataHash = new Uint8Array(await crypto.subtle.digest("SHA-256", clientDataJSON));
    const signature = new Uint8Array(
      await crypto.subtle.sign(
        { name: "ECDSA", hash: "SHA-256" },
        this.keys.privateKey,
        concat(authenticatorData, clientDataHash),
      ),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON),
        authenticatorData: isoBase64URL.fromBuffer(authenticatorData),
        signature: isoBase64URL.fromBuffer(derSignature(signature)),
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  private async authenticatorData(
    claims: ResponseClaims,
    extraFlags: number,
    attested: Uint8Array,
    counter: number,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const rpIdHash = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(claims.rpId ?? this.rpId)),
    );
    const verified = (claims.userVerified ?? true) ? FLAG_USER_VERIFIED : 0;
    const counterBytes = new Uint8Array(4);
    new DataView(counterBytes.buffer).setUint32(0, counter);
    return concat(
      rpIdHash,
      new Uint8Array([FLAG_USER_PRESENT | verified | extraFlags]),
      counterBytes,
      attested,
    );
  }
}

/** The response with one byte of its signature flipped. */
export function tamperedSignature(
  response: AuthenticationResponseJSON,
): AuthenticationResponseJSON {
  const signature = isoBase64URL.toBuffer(response.response.signature);
  signature[signature.length - 1]! ^= 0x01;
  return {
    ...response,
    response: { ...response.response, signature: isoBase64URL.fromBuffer(signature) },
  };
}

function clientData(type: string, challenge: string, origin: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** WebCrypto signs ECDSA as r‖s; WebAuthn carries the ASN.1 DER SEQUENCE of two INTEGERs. */
function derSignature(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.slice(start);
    const padded = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, padded.length]), padded);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}
