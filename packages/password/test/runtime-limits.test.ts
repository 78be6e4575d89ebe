// A runtime whose WebCrypto refuses PBKDF2 above 100000 iterations, as Cloudflare's production
// Workers runtime does (local workerd and Node do not): `crypto.subtle.deriveBits` is wrapped
// to refuse exactly as Cloudflare words it, and to record what it was asked.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_MAXIMUM_FALLBACK_ITERATIONS,
  hashPassword,
  type PasswordHashOptions,
  verifyDummyPassword,
  verifyPassword,
  WORKERS_MAXIMUM_NATIVE_ITERATIONS,
} from "../src/index.js";
import django from "./vectors/django-pbkdf2-sha256.json" with { type: "json" };

const CLOUDFLARE_LIMIT = 100_000;
const ON_CLOUDFLARE: PasswordHashOptions = { maximumNativeIterations: CLOUDFLARE_LIMIT };
const PASSWORD = "correct horse battery staple";
const django600000 = django.cases.find((vector) => vector.digest.includes("$600000$"))!;

/** Digests made before the limit is simulated, by Node's uncapped WebCrypto. */
let strong150000: string;
let strong1200000: string;
beforeAll(async () => {
  strong150000 = await hashPassword(PASSWORD, { iterations: 150_000 });
  strong1200000 = await hashPassword(PASSWORD, { iterations: 1_200_000 });
});

/** The iteration counts native PBKDF2 was asked for, refused ones included. */
let nativeCalls: number[];
beforeEach(() => {
  nativeCalls = [];
  const subtle = globalThis.crypto.subtle;
  const deriveBits = subtle.deriveBits.bind(subtle);
  vi.spyOn(subtle, "deriveBits").mockImplementation(async (algorithm, key, length) => {
    const { iterations } = algorithm as Pbkdf2Params;
    nativeCalls.push(iterations);
    if (iterations > CLOUDFLARE_LIMIT) {
      throw new DOMException(
        `Pbkdf2 failed: iteration counts above 100000 are not supported (requested ${iterations}).`,
        "NotSupportedError",
      );
    }
    return deriveBits(algorithm, key, length);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("a runtime that caps native PBKDF2 at 100000 iterations", () => {
  it("throws its own error on a 600000-iteration digest when the cap is not told", async () => {
    await expect(verifyPassword(django600000.password, django600000.digest)).rejects.toThrow(
      /iteration counts above 100000 are not supported/,
    );
  });

  it("verifies Django 4.2's 600000-iteration digest in pure JS once told the cap", async () => {
    expect(await verifyPassword(django600000.password, django600000.digest, ON_CLOUDFLARE)).toEqual(
      {
        valid: true,
        // Django's 7-character test salt is too weak to keep: the rehash is at 100000, native.
        needsRehash: true,
      },
    );
    expect(nativeCalls).toEqual([]);
    const rehashed = await hashPassword(django600000.password, ON_CLOUDFLARE);
    expect(rehashed).toMatch(/^pbkdf2_sha256\$100000\$/);
    expect(nativeCalls).toEqual([100_000]);
  });

  it("keeps a strong digest above the cap: the right password is valid and no rehash is asked", async () => {
    expect(await verifyPassword(PASSWORD, strong150000, ON_CLOUDFLARE)).toEqual({
      valid: true,
      needsRehash: false,
    });
    expect(nativeCalls).toEqual([]);
  });

  it("refuses a wrong password through the pure-JS path, and keeps native counts native", async () => {
    const small = { iterations: 1000, maximumNativeIterations: 1000 };
    const above = await hashPassword(PASSWORD, { iterations: 2000 });
    const within = await hashPassword(PASSWORD, { iterations: 1000 });
    nativeCalls.length = 0;
    expect(await verifyPassword(PASSWORD, above, small)).toEqual({
      valid: true,
      needsRehash: false,
    });
    expect(await verifyPassword(`${PASSWORD}!`, above, small)).toEqual({
      valid: false,
      needsRehash: false,
    });
    expect(nativeCalls).toEqual([]);
    expect(await verifyPassword(PASSWORD, within, small)).toEqual({
      valid: true,
      needsRehash: false,
    });
    expect(nativeCalls).toEqual([1000]);
  });

  it("refuses a digest above the pure-JS budget with a reason, after a native dummy check", async () => {
    expect(DEFAULT_MAXIMUM_FALLBACK_ITERATIONS).toBe(800_000);
    // The right password: the digest is not checked at all, so it cannot be valid.
    expect(await verifyPassword(PASSWORD, strong1200000, ON_CLOUDFLARE)).toEqual({
      valid: false,
      needsRehash: false,
      unverifiable: {
        reason: "iterations-above-limit",
        iterations: 1_200_000,
        maximumIterations: 800_000,
      },
    });
    // The same work as a wrong password at the configured count, so timing does not tell.
    expect(nativeCalls).toEqual([100_000]);
  });

  it("takes a budget of its own, and no pure-JS path at all with a budget of 0", async () => {
    const digest = await hashPassword(PASSWORD, { iterations: 2000 });
    const limits = { iterations: 1000, maximumNativeIterations: 1000 };
    expect(
      await verifyPassword(PASSWORD, digest, { ...limits, maximumFallbackIterations: 1999 }),
    ).toMatchObject({ valid: false, unverifiable: { iterations: 2000, maximumIterations: 1999 } });
    expect(
      await verifyPassword(PASSWORD, digest, { ...limits, maximumFallbackIterations: 0 }),
    ).toMatchObject({ valid: false, unverifiable: { iterations: 2000, maximumIterations: 1000 } });
    expect(
      await verifyPassword(PASSWORD, digest, { ...limits, maximumFallbackIterations: 2000 }),
    ).toEqual({ valid: true, needsRehash: false });
  });

  it("never hashes, rehashes or dummy-checks above the cap: that configuration is refused", async () => {
    const beyond = { iterations: 200_000, maximumNativeIterations: CLOUDFLARE_LIMIT };
    const digest100000 = await hashPassword(PASSWORD, ON_CLOUDFLARE);
    nativeCalls.length = 0;
    const message = /iterations \(200000\) must not exceed maximumNativeIterations \(100000\)/;
    await expect(hashPassword(PASSWORD, beyond)).rejects.toThrow(message);
    // Not `{ valid: true, needsRehash: true }`: the rehash it would ask for cannot run here.
    await expect(verifyPassword(PASSWORD, digest100000, beyond)).rejects.toThrow(message);
    await expect(verifyDummyPassword(PASSWORD, beyond)).rejects.toThrow(RangeError);
    expect(nativeCalls).toEqual([]);
  });
});

describe("on Cloudflare Workers (navigator.userAgent)", () => {
  it("caps native PBKDF2 at 100000 without being told", async () => {
    vi.stubGlobal("navigator", { userAgent: "Cloudflare-Workers" });
    expect(WORKERS_MAXIMUM_NATIVE_ITERATIONS).toBe(100_000);
    expect(await verifyPassword(PASSWORD, strong150000)).toEqual({
      valid: true,
      needsRehash: false,
    });
    expect(nativeCalls).toEqual([]);
    await expect(hashPassword(PASSWORD, { iterations: 150_000 })).rejects.toThrow(
      /must not exceed maximumNativeIterations \(100000\)/,
    );
  });
});

describe("the limits' own checks", () => {
  it.each([999, 1500.5, Number.NaN, 0, -100000])(
    "refuses maximumNativeIterations %s as a programmer error",
    async (maximumNativeIterations) => {
      const options = { iterations: 1000, maximumNativeIterations };
      await expect(verifyPassword("x", "y", options)).rejects.toThrow(RangeError);
      await expect(hashPassword("x", options)).rejects.toThrow(RangeError);
    },
  );

  it.each([-1, 1500.5, 2_000_001, Number.NaN, Number.POSITIVE_INFINITY])(
    "refuses maximumFallbackIterations %s as a programmer error",
    async (maximumFallbackIterations) => {
      await expect(
        verifyPassword("x", "y", { iterations: 1000, maximumFallbackIterations }),
      ).rejects.toThrow(/maximumFallbackIterations must be an integer from 0 to 2000000/);
    },
  );
});
