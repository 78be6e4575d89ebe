import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A bare `node:http` receiver of webhook deliveries on 127.0.0.1, in the bench's process. */
export interface BenchReceiver {
  /** Its address, e.g. `http://127.0.0.1:40123/in`. */
  readonly url: string;
  /** Deliveries answered so far. */
  readonly received: number;
  /** Deliveries held unanswered now. */
  readonly waiting: number;
  /**
   * Keeps every request unanswered from now on, which holds the app's sender on its first few
   * deliveries: events then wait in the outbox.
   */
  hold(): void;
  /** Answers the held requests and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

/** Starts a receiver that answers each delivery 204 (unless held), counting them. */
export async function startBenchReceiver(): Promise<BenchReceiver> {
  let received = 0;
  let holding = false;
  const held: ServerResponse[] = [];
  const answer = (response: ServerResponse) => {
    received++;
    response.writeHead(204).end();
  };
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => (holding ? held.push(response) : answer(response)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`,
    get received() {
      return received;
    },
    get waiting() {
      return held.length;
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const response of held.splice(0)) answer(response);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
