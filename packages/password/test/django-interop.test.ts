import { execFileSync } from "node:child_process";
import { utf8 } from "@tessera/crypto";
import { describe, expect, it } from "vitest";
import { formatPasswordDigest, parsePasswordDigest } from "../src/digest-format.js";
import { hashPassword, verifyPassword } from "../src/index.js";
import { pbkdf2Sha256 } from "../src/pbkdf2.js";
import django from "./vectors/django-pbkdf2-sha256.json" with { type: "json" };

describe.each(django.cases)("Django's digest: $name", ({ password, digest }) => {
  const parsed = parsePasswordDigest(digest);
  if (!parsed.ok) throw new Error(`vector does not parse: ${parsed.reason}`);
  const { iterations, salt } = parsed.value;

  it("verifies, and asks for a rehash (other count, salt under 128 bits)", async () => {
    expect(await verifyPassword(password, digest)).toEqual({ valid: true, needsRehash: true });
    // Even at Django's own count the 7-character salt is too weak to keep, as Django says too.
    expect(await verifyPassword(password, digest, { iterations })).toEqual({
      valid: true,
      needsRehash: true,
    });
  });

  it("refuses Django's wrong password", async () => {
    expect(await verifyPassword(`${password}z`, digest)).toEqual({
      valid: false,
      needsRehash: false,
    });
  });

  it("is what we write for the same password, salt and count", async () => {
    const hash = await pbkdf2Sha256(utf8(password), utf8(salt), iterations, 32);
    expect(formatPasswordDigest({ iterations, salt, hash })).toBe(digest);
  });
});

/**
 * Django's PBKDF2PasswordHasher.verify, line for line: split on "$" (at most 3 times), PBKDF2
 * over the UTF-8 password and salt, standard base64, constant-time compare of the whole text.
 */
const DJANGO_VERIFY = `
import base64, hashlib, hmac, sys
password, encoded = sys.argv[1], sys.argv[2]
algorithm, iterations, salt, hash = encoded.split("$", 3)
assert algorithm == "pbkdf2_sha256"
derived = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), int(iterations), 32)
encoded_2 = "%s$%d$%s$%s" % (algorithm, int(iterations), salt, base64.b64encode(derived).decode("ascii").strip())
print("valid" if hmac.compare_digest(encoded.encode(), encoded_2.encode()) else "invalid")
`;

function findPython(): string | undefined {
  try {
    execFileSync("python3", ["--version"], { stdio: "ignore" });
    return "python3";
  } catch {
    return undefined;
  }
}
const python = findPython();

describe.skipIf(!python)("our digests, checked the way Django checks them (python3)", () => {
  const djangoVerify = (password: string, digest: string) =>
    execFileSync(python!, ["-c", DJANGO_VERIFY, password, digest], { encoding: "utf8" }).trim();

  it.each(["correct horse", "lètmein", "🔑 pässwörd 密码", "$dollar$signs$"])(
    "accepts %j and refuses it with one more character",
    async (password) => {
      const digest = await hashPassword(password, { iterations: 1000 });
      expect(djangoVerify(password, digest)).toBe("valid");
      expect(djangoVerify(`${password}z`, digest)).toBe("invalid");
    },
  );

  it("accepts a digest at the default 100000 iterations", async () => {
    expect(djangoVerify("correct horse", await hashPassword("correct horse"))).toBe("valid");
  });
});
