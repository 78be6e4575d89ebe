import { pbkdf2Sync } from "node:crypto";
import { pbkdf2 } from "@noble/hashes/pbkdf2.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBase64, utf8 } from "@tessera/crypto";
import { compareContenders } from "../../../bench/compare.js";
import { DEFAULT_ITERATIONS, hashPassword, verifyPassword } from "../src/index.js";

// Same work in every contender: PBKDF2-HMAC-SHA256, 100000 iterations, 32 bytes, over a
// 22-character salt; the baselines also write the digest so only the PBKDF2 engine differs.
const PASSWORD = "correct horse battery staple";
const SALT = "q2lVc0p3T1hnS0Z2dGxBZw";

function digestOf(hash: Uint8Array): string {
  return `pbkdf2_sha256$${DEFAULT_ITERATIONS}$${SALT}$${encodeBase64(hash)}`;
}

const nodeHash = () => digestOf(pbkdf2Sync(PASSWORD, SALT, DEFAULT_ITERATIONS, 32, "sha256"));
const nobleHash = () =>
  digestOf(pbkdf2(sha256, utf8(PASSWORD), utf8(SALT), { c: DEFAULT_ITERATIONS, dkLen: 32 }));

console.error("password: hashing");
const hashing = await compareContenders("Password hashing (PBKDF2-SHA256, 100000 iterations)", [
  { name: "node:crypto pbkdf2Sync", run: nodeHash },
  { name: "@tessera/password hashPassword", run: () => hashPassword(PASSWORD) },
  { name: "@noble/hashes pbkdf2 (pure JS)", run: nobleHash },
]);

const stored = await hashPassword(PASSWORD);
const storedHash = stored.split("$")[3]!;
const storedSalt = stored.split("$")[2]!;
const nodeVerify = () =>
  encodeBase64(pbkdf2Sync(PASSWORD, storedSalt, DEFAULT_ITERATIONS, 32, "sha256")) === storedHash;
const nobleVerify = () =>
  encodeBase64(
    pbkdf2(sha256, utf8(PASSWORD), utf8(storedSalt), { c: DEFAULT_ITERATIONS, dkLen: 32 }),
  ) === storedHash;

console.error("password: verification");
const verifying = await compareContenders(
  "Password verification (PBKDF2-SHA256, 100000 iterations)",
  [
    { name: "node:crypto pbkdf2Sync", run: nodeVerify },
    { name: "@tessera/password verifyPassword", run: () => verifyPassword(PASSWORD, stored) },
    { name: "@noble/hashes pbkdf2 (pure JS)", run: nobleVerify },
  ],
  {
    note: "Ours runs on WebCrypto, off the main thread; pbkdf2Sync blocks the event loop meanwhile.",
  },
);

process.stdout.write(`## @tessera/password\n\n${hashing.markdown}\n${verifying.markdown}`);
