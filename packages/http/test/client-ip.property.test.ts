import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientIp, rateLimitClientKey } from "../src/index.js";

const ipv4 = fc.ipV4();
const SOCKET = "10.0.0.9";

describe("client IP properties", () => {
  it("takes exactly the N-th entry from the right, or the socket address", () => {
    fc.assert(
      fc.property(
        fc.array(ipv4, { maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        (list, hops) => {
          const ip = clientIp({
            socketAddress: SOCKET,
            forwardedFor: list.join(", "),
            trustProxy: hops,
          });
          expect(ip).toBe(list.length >= hops ? list[list.length - hops] : SOCKET);
        },
      ),
    );
  });

  it("whatever a client writes to the left cannot change the answer", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { maxLength: 5 }),
        fc.array(ipv4, { minLength: 1, maxLength: 4 }),
        (forged, appended) => {
          const hops = appended.length;
          const honest = clientIp({
            socketAddress: SOCKET,
            forwardedFor: appended.join(","),
            trustProxy: hops,
          });
          const withForgery = clientIp({
            socketAddress: SOCKET,
            forwardedFor: [...forged, ...appended].join(","),
            trustProxy: hops,
          });
          expect(withForgery).toBe(honest);
        },
      ),
    );
  });

  it("every address of one /64 gets the same key, and the key ignores how it is written", () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    const prefix = fc.tuple(group, group, group, group).filter(([a, b, c, d]) => a + b + c + d > 0);
    const suffix = fc.tuple(group, group, group, group);
    fc.assert(
      fc.property(prefix, suffix, suffix, (head, tail1, tail2) => {
        const full = (groups: number[]) =>
          groups.map((g) => g.toString(16).padStart(4, "0")).join(":");
        const first = rateLimitClientKey(full([...head, ...tail1]));
        expect(first).toMatch(/\/64$/);
        expect(rateLimitClientKey(full([...head, ...tail2]))).toBe(first);
        expect(rateLimitClientKey(full([...head, ...tail1]).toUpperCase())).toBe(first);
      }),
    );
  });

  it("IPv4-mapped IPv6 keys as the IPv4 address", () => {
    fc.assert(
      fc.property(ipv4, (address) => {
        expect(rateLimitClientKey(`::ffff:${address}`)).toBe(address);
        expect(rateLimitClientKey(address)).toBe(address);
      }),
    );
  });
});
