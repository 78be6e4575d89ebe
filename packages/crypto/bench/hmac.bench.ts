import { createHmac, timingSafeEqual } from "node:crypto";
import { compareContenders } from "../../../bench/compare.js";
import { constantTimeEqual, hmacSha256, nobleBackend, randomBytes } from "../src/index.js";

const key = randomBytes(32);
const body = randomBytes(1024);
const expected = hmacSha256(key, body);

const sign = await compareContenders("HMAC-SHA256 sign, 1 KB body", [
  { name: "node:crypto createHmac", run: () => createHmac("sha256", key).update(body).digest() },
  { name: "@tessera/crypto hmacSha256", run: () => hmacSha256(key, body) },
  {
    name: "pure JS (@noble/hashes, our fallback)",
    run: () => nobleBackend.hmacSha256(key, [body]),
  },
]);

const verify = await compareContenders("HMAC-SHA256 verify, 1 KB body", [
  {
    name: "node:crypto createHmac + timingSafeEqual",
    run: () => timingSafeEqual(createHmac("sha256", key).update(body).digest(), expected),
  },
  {
    name: "@tessera/crypto hmacSha256 + constantTimeEqual",
    run: () => constantTimeEqual(hmacSha256(key, body), expected),
  },
]);

process.stdout.write(`## @tessera/crypto\n\n${sign.markdown}\n${verify.markdown}`);
