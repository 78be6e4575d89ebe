// The `Range` header of a GET (RFC 9110 §14.1–14.2), for one object of known size.
// Written here rather than taken from `range-parser`: that package answers "unsatisfiable"
// for an invalid range such as `bytes=5-2`, which RFC 9110 says to ignore (a 200), and it
// is CommonJS, which this runtime-neutral package avoids.
import type { ByteRange } from "./object-storage.js";

/** What a `Range` header asks of an object. */
export type RangeAnswer =
  /** Send it whole (200): the header is malformed, names another unit, or asks several ranges. */
  | { readonly kind: "whole" }
  /** Send this part (206). */
  | { readonly kind: "part"; readonly range: ByteRange }
  /** No asked byte exists (416 with `Content-Range: bytes *\/<size>`). */
  | { readonly kind: "unsatisfiable" };

const WHOLE: RangeAnswer = { kind: "whole" };
const UNSATISFIABLE: RangeAnswer = { kind: "unsatisfiable" };
// `bytes` is compared case-insensitively; no spaces around `=` (the grammar has none).
const RANGES_SPECIFIER = /^bytes=(.*)$/i;
const INT_RANGE = /^(\d+)-(\d*)$/;
const SUFFIX_RANGE = /^-(\d+)$/;

/**
 * The answer to `header` for an object of `size` bytes. Only one range is served: a request
 * for several is answered whole (RFC 9110 lets a server ignore `Range`), which also spares
 * the server the many-small-ranges amplification of `multipart/byteranges`. Positions of any
 * length are compared exactly (as BigInt), so a huge one is never rounded.
 */
export function requestedRange(header: string, size: number): RangeAnswer {
  const set = RANGES_SPECIFIER.exec(header)?.[1];
  if (set === undefined) return WHOLE;
  // `1#range-spec`: elements separated by commas with optional spaces; empty ones are allowed.
  const specs = set
    .split(",")
    .map((spec) => spec.replace(/^[ \t]+|[ \t]+$/g, ""))
    .filter((spec) => spec !== "");
  if (specs.length !== 1) return WHOLE;
  const spec = specs[0]!;
  const total = BigInt(size);
  const int = INT_RANGE.exec(spec);
  if (int) {
    const first = BigInt(int[1]!);
    const last = int[2] === "" ? undefined : BigInt(int[2]!);
    if (last !== undefined && last < first) return WHOLE;
    if (first >= total) return UNSATISFIABLE;
    const end = last === undefined || last >= total ? total - 1n : last;
    return part(first, end - first + 1n);
  }
  const suffix = SUFFIX_RANGE.exec(spec);
  if (!suffix) return WHOLE;
  const length = BigInt(suffix[1]!);
  if (length === 0n) return UNSATISFIABLE;
  // A non-empty suffix of an empty object is satisfiable but has no bytes to send as a part.
  if (total === 0n) return WHOLE;
  const taken = length < total ? length : total;
  return part(total - taken, taken);
}

function part(offset: bigint, length: bigint): RangeAnswer {
  return { kind: "part", range: { offset: Number(offset), length: Number(length) } };
}
