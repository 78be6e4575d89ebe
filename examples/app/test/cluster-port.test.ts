// WEB_CONCURRENCY with PORT=0: the primary picks a free port and closes its probe before the
// workers listen, so another process may take the port in between. It then picks again.
import { describe, expect, it } from "vitest";
import { startOnPickedPort } from "../src/cluster.js";
import { ConfigError } from "../src/config.js";
import { PortInUseError } from "../src/port-in-use.js";

/** Picks 4001, 4002, … and starts on every port but those `taken` holds. */
function ports(taken: readonly number[]) {
  let next = 4001;
  const tried: number[] = [];
  return {
    tried,
    pick: async () => next++,
    start: async (port: number) => {
      tried.push(port);
      if (taken.includes(port)) throw new PortInUseError(port);
      return `http://127.0.0.1:${port}`;
    },
  };
}

describe("starting a cluster on a port the primary picked", () => {
  it("starts on the first pick when nobody took it", async () => {
    const { pick, start, tried } = ports([]);
    await expect(startOnPickedPort(pick, start)).resolves.toBe("http://127.0.0.1:4001");
    expect(tried).toEqual([4001]);
  });

  it("picks again when the port was taken before the workers listened", async () => {
    const { pick, start, tried } = ports([4001, 4002]);
    await expect(startOnPickedPort(pick, start)).resolves.toBe("http://127.0.0.1:4003");
    expect(tried).toEqual([4001, 4002, 4003]);
  });

  it("says the port is in use after three picks in a row were taken", async () => {
    const { pick, start, tried } = ports([4001, 4002, 4003, 4004]);
    const failure = startOnPickedPort(pick, start);
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow("port 4003 is in use");
    expect(tried).toEqual([4001, 4002, 4003]);
  });

  it("does not retry a failure other than a port in use", async () => {
    let starts = 0;
    const failure = startOnPickedPort(
      async () => 4001,
      async () => {
        starts++;
        throw new ConfigError("DATABASE_URL cannot be reached");
      },
    );
    await expect(failure).rejects.toThrow("DATABASE_URL cannot be reached");
    expect(starts).toBe(1);
  });
});
