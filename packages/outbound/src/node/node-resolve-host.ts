import { lookup } from "node:dns/promises";
import type { ResolveHost } from "../outbound-policy.js";

/**
 * Every address of a host through the system resolver (`dns.lookup` with `all: true`, as a
 * connection would resolve it): the `resolveHost` of a registration check on Node.
 */
export const nodeResolveHost: ResolveHost = async (host) =>
  (await lookup(host, { all: true })).map((entry) => entry.address);
