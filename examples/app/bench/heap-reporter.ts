// Preloaded into the app by `npm run soak` (`node --import <this file>`), never by the app
// itself: it answers the soak's messages with the process's JavaScript heap, so that a rising
// resident memory can be told apart from a growing heap. It collects nothing itself (a forced
// collection would reset V8's heap sizing and bend the very curve being measured): the live
// heap is read from V8's own full collections, as a GC profiler records them.
import { GCProfiler, getHeapStatistics } from "node:v8";
import type { V8Memory } from "./v8-memory.js";

let profiler = new GCProfiler();
profiler.start();
let liveAfterFullGc: number | undefined;

process.on("message", (message: { readonly heap?: boolean }) => {
  if (!message.heap) return;
  const collections = profiler.stop()?.statistics ?? [];
  profiler = new GCProfiler();
  profiler.start();
  let fullCollections = 0;
  for (const collection of collections) {
    if (collection.gcType === "MarkSweepCompact") {
      fullCollections += 1;
      liveAfterFullGc = collection.afterGC.heapStatistics.usedHeapSize;
    }
  }
  const heap = getHeapStatistics();
  process.send?.({
    memory: {
      residentBytes: heap.total_physical_size,
      usedBytes: heap.used_heap_size,
      fullCollections,
      ...(liveAfterFullGc === undefined ? {} : { liveAfterFullGcBytes: liveAfterFullGc }),
    } satisfies V8Memory,
  });
});
// The channel must not keep the app running once it stops on SIGTERM.
process.channel?.unref();
