/** A promise and the function that resolves it: for awaiting an event a test waits on. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Lets other tasks run for a few event-loop turns. */
export async function turns(count = 5): Promise<void> {
  for (let n = 0; n < count; n++) await new Promise((resolve) => setImmediate(resolve));
}
