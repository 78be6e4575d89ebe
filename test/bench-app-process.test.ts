import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startServerProcess } from "../examples/app/bench/app-process.js";

const exitingServer = fileURLToPath(new URL("./fixtures/exiting-server.ts", import.meta.url));

describe("a bench's server process", () => {
  it("stops at once when it has already exited, removing its working folder", async () => {
    const server = await startServerProcess(exitingServer);
    const folder = new URL(server.url).searchParams.get("folder")!;
    if (server.child.exitCode === null) {
      await new Promise((resolve) => server.child.once("exit", resolve));
    }
    expect(existsSync(folder)).toBe(true);
    // Before, stop() waited for an exit event that had already been sent, for ever.
    await server.stop();
    expect(existsSync(folder)).toBe(false);
  });
});
