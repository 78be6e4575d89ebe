import type { ChildProcess } from "node:child_process";

/** The JavaScript heap of a process, in bytes. */
export interface V8Memory {
  /** The heap's share of the resident memory (V8's `total_physical_size`). */
  readonly residentBytes: number;
  /** Taken by objects, live or not yet collected. */
  readonly usedBytes: number;
  /** Full collections V8 made since the previous reading. */
  readonly fullCollections: number;
  /** Taken by objects right after V8's latest full collection: the live heap, then. */
  readonly liveAfterFullGcBytes?: number;
}

/** Node's arguments that load heap-reporter.ts into an app started with an IPC channel. */
export const HEAP_REPORTER_ARGUMENTS = [
  "--import",
  new URL("./heap-reporter.ts", import.meta.url).href,
] as const;

/** Asks the app (started with {@link HEAP_REPORTER_ARGUMENTS}) for its heap. */
export function readV8Memory(app: ChildProcess): Promise<V8Memory> {
  return new Promise((resolve, reject) => {
    const answer = (message: { readonly memory?: V8Memory }) => {
      if (!message.memory) return;
      app.off("message", answer);
      resolve(message.memory);
    };
    app.on("message", answer);
    if (!app.send({ heap: true })) {
      app.off("message", answer);
      reject(new Error("the app has no IPC channel: start it with HEAP_REPORTER_ARGUMENTS"));
    }
  });
}
