import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A Resend double on 127.0.0.1 that answers a mail to a recipient starting with `slow` with a
 * 500 whose body trickles, a byte every 20 ms, until the client lets go (or `recover()`), and
 * every other mail with a 200 at once. It records who was answered and which trickles the
 * client closed.
 */
export async function startTricklingProvider() {
  const trickles = new Set<ServerResponse>();
  const answered: string[] = [];
  const watchers = new Set<() => void>();
  let trickling = true;
  let closedTrickles = 0;
  const changed = () => {
    for (const watch of watchers) watch();
  };
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const to = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { to: string[] }).to[0]!;
      if (!(trickling && to.startsWith("slow"))) {
        outgoing.writeHead(200, { "Content-Type": "application/json" });
        outgoing.end('{"id":"4ef9a417"}', () => {
          answered.push(to);
          changed();
        });
        return;
      }
      outgoing.writeHead(500, { "Content-Type": "application/json" });
      outgoing.write('{"message":"');
      trickles.add(outgoing);
      const drip = setInterval(() => outgoing.write("."), 20);
      outgoing.on("close", () => {
        clearInterval(drip);
        if (trickles.delete(outgoing)) closedTrickles++;
        changed();
      });
      changed();
    });
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Recipients answered 200, in order. */
    answered,
    /** Trickling answers still open. */
    get open() {
      return trickles.size;
    },
    /** Trickling answers the client (the mailer) closed. */
    get closedByClient() {
      return closedTrickles;
    },
    /** Resolves once `done()` holds, checked after each answer or closed trickle. */
    until(done: () => boolean): Promise<void> {
      return new Promise((resolve) => {
        const watch = () => {
          if (!done()) return;
          watchers.delete(watch);
          resolve();
        };
        watchers.add(watch);
        watch();
      });
    },
    /** Answers every later mail at once, and drops the trickles still open. */
    recover() {
      trickling = false;
      for (const trickle of [...trickles]) {
        trickles.delete(trickle);
        trickle.destroy();
      }
    },
    async close() {
      this.recover();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
