import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Crypto = typeof import("@tessera/crypto");

export default {
  does: "HMAC-SHA256 against a known vector; AES-GCM seal, open and refuse another context",
  imports: () => ["@tessera/crypto"],
  async run({ load, check }) {
    const { deriveKey, encodeHex, hmacSha256, openPayload, sealPayload, utf8 } =
      await load<Crypto>("@tessera/crypto");
    // RFC 4231 test case 2.
    const mac = encodeHex(hmacSha256(utf8("Jefe"), utf8("what do ya want for nothing?")));
    check(
      mac === "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
      "HMAC-SHA256 matches RFC 4231 case 2",
    );
    const key = deriveKey("a secret key base of at least thirty-two characters", "smoke");
    const sealed = await sealPayload(key, "user 42", "session");
    const opened = await openPayload(key, sealed, "session");
    check(opened.ok && new TextDecoder().decode(opened.value) === "user 42", "sealed value opens");
    const foreign = await openPayload(key, sealed, "remember");
    check(!foreign.ok, "a value sealed for one context is refused for another");
  },
} satisfies RuntimeSmoke;
