import fc, { type Arbitrary } from "fast-check";

/**
 * `arbitrary` three times in four, `others` the rest of the time (each alike): the first is
 * where shrinking ends up.
 */
export function mostly<T>(arbitrary: Arbitrary<T>, ...others: Arbitrary<T>[]): Arbitrary<T> {
  return fc.oneof(
    { weight: 3 * Math.max(1, others.length), arbitrary },
    ...others.map((other) => ({ weight: 1, arbitrary: other })),
  );
}

/** `arbitrary` nine times in ten, `others` the rest of the time. */
export function seldomOtherwise<T>(
  arbitrary: Arbitrary<T>,
  ...others: Arbitrary<T>[]
): Arbitrary<T> {
  return fc.oneof(
    { weight: 9 * Math.max(1, others.length), arbitrary },
    ...others.map((other) => ({ weight: 1, arbitrary: other })),
  );
}
