/**
 * A function giving what `load` gives, calling `load` on its first call only: calls that come
 * while it runs share the same promise, and a failed load is tried again by the next call (a
 * missing optional module or a passing I/O error does not stick). For libraries that cost
 * start-up time and memory but serve few requests: `loadOnFirstUse(() => import("heavy"))`
 * keeps them out of start-up, and the first request that needs one pays for it once.
 */
export function loadOnFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
