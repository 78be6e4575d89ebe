import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { type NodeServerFetch, settleUnreadBodies } from "@tessera/node";

/**
 * Serves `app` on Node at `port` and `host`, resolving with the server and its address once it
 * listens. A form refused before it was read (over its cap, or from another site) reaches the
 * client, whatever it still sends: `settleUnreadBodies` of `@tessera/node`.
 */
export function listen(
  app: { readonly fetch: NodeServerFetch },
  port: number,
  host: string,
): Promise<{ server: ServerType; address: AddressInfo }> {
  return new Promise((resolve) => {
    const server = serve(
      { fetch: settleUnreadBodies(app.fetch), port, hostname: host },
      (address) => resolve({ server, address }),
    );
  });
}
