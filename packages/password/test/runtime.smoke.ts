import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Password = typeof import("@tessera/password");

export default {
  does: "hash a password (PBKDF2, 100,000 iterations), verify it, refuse a wrong one",
  imports: () => ["@tessera/password"],
  async run({ load, check }) {
    const { hashPassword, verifyPassword } = await load<Password>("@tessera/password");
    const digest = await hashPassword("correct horse battery staple");
    check(digest.startsWith("pbkdf2_sha256$100000$"), "digest names algorithm and iterations");
    const right = await verifyPassword("correct horse battery staple", digest);
    check(right.valid && !right.needsRehash, "the right password verifies");
    const wrong = await verifyPassword("correct horse battery stapler", digest);
    check(!wrong.valid, "a wrong password is refused");
  },
} satisfies RuntimeSmoke;
