import { MAXIMUM_ITERATIONS, MINIMUM_ITERATIONS } from "./digest-format.js";

/**
 * The most iterations Cloudflare Workers' WebCrypto derives: its production runtime refuses
 * PBKDF2 above 100000 (local workerd does not). The default `maximumNativeIterations` there.
 */
export const WORKERS_MAXIMUM_NATIVE_ITERATIONS = 100_000;

/**
 * Default `maximumFallbackIterations`: the most iterations verified in pure JS when the
 * runtime's WebCrypto cannot, a budget of about one second of one core's CPU per sign-in on the
 * development machine (see the README's "Runtimes that cap PBKDF2"). Django 4.2's and 5.0's
 * defaults (600000, 720000) fit; later ones need it raised.
 */
export const DEFAULT_MAXIMUM_FALLBACK_ITERATIONS = 800_000;

/** How a stored digest's count is derived on this runtime. */
export type Derivation = "native" | "fallback" | "refused";

/** The limits one call works under, checked and with their defaults filled in. */
export interface IterationLimits {
  /** Counts up to this go to WebCrypto (`Infinity` where the runtime has no cap). */
  readonly maximumNative: number;
  /** Counts above `maximumNative` and up to this go to pure JS; above both, refused. */
  readonly maximumFallback: number;
}

/** Cloudflare's runtime says so in `navigator.userAgent`, locally in workerd as in production. */
function runsOnCloudflareWorkers(): boolean {
  return globalThis.navigator?.userAgent === "Cloudflare-Workers";
}

/**
 * Checks the two limits and fills in their defaults: no native cap except on Cloudflare
 * Workers (100000), and {@link DEFAULT_MAXIMUM_FALLBACK_ITERATIONS} for pure JS.
 * @throws {RangeError} for a native cap that is not an integer of at least 1000, or a fallback
 * budget that is not an integer from 0 to 2000000: programmer errors.
 */
export function iterationLimits(options: {
  readonly maximumNativeIterations?: number | undefined;
  readonly maximumFallbackIterations?: number | undefined;
}): IterationLimits {
  const maximumNative =
    options.maximumNativeIterations ??
    (runsOnCloudflareWorkers() ? WORKERS_MAXIMUM_NATIVE_ITERATIONS : Number.POSITIVE_INFINITY);
  if (
    maximumNative !== Number.POSITIVE_INFINITY &&
    !(Number.isInteger(maximumNative) && maximumNative >= MINIMUM_ITERATIONS)
  ) {
    throw new RangeError(
      `maximumNativeIterations must be an integer of at least ${MINIMUM_ITERATIONS}`,
    );
  }
  const maximumFallback = options.maximumFallbackIterations ?? DEFAULT_MAXIMUM_FALLBACK_ITERATIONS;
  if (
    !Number.isInteger(maximumFallback) ||
    maximumFallback < 0 ||
    maximumFallback > MAXIMUM_ITERATIONS
  ) {
    throw new RangeError(
      `maximumFallbackIterations must be an integer from 0 to ${MAXIMUM_ITERATIONS}`,
    );
  }
  return { maximumNative, maximumFallback };
}

/** Which engine derives `iterations` under `limits`, or `refused` when neither may. */
export function derivationFor(iterations: number, limits: IterationLimits): Derivation {
  if (iterations <= limits.maximumNative) return "native";
  if (iterations <= limits.maximumFallback) return "fallback";
  return "refused";
}

/** The highest count `limits` let this runtime verify. */
export function verifiableIterations(limits: IterationLimits): number {
  return Math.min(MAXIMUM_ITERATIONS, Math.max(limits.maximumNative, limits.maximumFallback));
}
