import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { refusedAddress } from "../outbound-policy.js";
import { OutboundRefusedError } from "../outbound-request.js";

/** `dns.lookup`'s shape, as `net.connect`'s `lookup` option calls it (always with options). */
export type NodeLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (
    error: NodeJS.ErrnoException | null,
    address: string | LookupAddress[],
    family?: number,
  ) => void,
) => void;

/**
 * A `lookup` for `net.connect` (so for `http.request`) that resolves every address of the host
 * through `resolve` (default `dns.lookup`) and refuses the connection when any of them is not
 * public: the check is made on the addresses the socket then connects to, so a DNS answer
 * that changes between a first check and the connection (rebinding) cannot slip through.
 */
export function guardedLookup(resolve: NodeLookup = dnsLookup as NodeLookup): NodeLookup {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, []);
      const addresses = Array.isArray(found) ? found : [{ address: found, family: 0 }];
      const refusal = refusedAddress(
        hostname,
        addresses.map((entry) => entry.address),
      );
      if (refusal) return callback(new OutboundRefusedError(refusal), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
