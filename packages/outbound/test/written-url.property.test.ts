import { checkOutboundUrl, URL_NOT_ALLOWED, URL_NOT_PLAIN } from "@tessera/outbound";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Plain http(s) URLs as RFC 3986 writes them: no user name, password or space, two slashes.
const plainUrl = fc.webUrl({
  validSchemes: ["http", "https"],
  withQueryParameters: true,
  withFragments: true,
});

/** Spellings of `url` a person would not write on purpose, which the WHATWG parser repairs. */
function repairedSpellings(url: string): string[] {
  const [scheme, rest] = url.split("://") as [string, string];
  const middle = Math.max(1, Math.floor(rest.length / 2));
  return [
    `${scheme}:/${rest}`,
    `${scheme}:${rest}`,
    `${scheme}:///${rest}`,
    `${scheme}:\\\\${rest}`,
    `${scheme}:/\\${rest}`,
    `${scheme}://${rest.slice(0, middle)}\t${rest.slice(middle)}`,
    `${scheme}://${rest.slice(0, middle)}\n${rest.slice(middle)}`,
    `${scheme}://:@${rest}`,
    `${scheme}://@${rest}`,
    `${scheme}://user:secret@${rest}`,
  ];
}

describe("URLs not written plainly (properties)", () => {
  it("the repairs are real: each spelling below reaches http://8.8.8.8/ through the parser", () => {
    for (const spelling of repairedSpellings("http://8.8.8.8/")) {
      const parsed = new URL(spelling);
      expect(`${parsed.protocol}//${parsed.host}${parsed.pathname}`).toBe("http://8.8.8.8/");
    }
  });

  it("refuses every repaired spelling of a URL, as not plain when it parses", () => {
    fc.assert(
      fc.property(plainUrl, (url) => {
        for (const spelling of repairedSpellings(url)) {
          const checked = checkOutboundUrl(spelling);
          expect(checked.ok).toBe(false);
          if (checked.ok) continue;
          expect(checked.fieldMessage).toBe(
            URL.canParse(spelling) ? URL_NOT_PLAIN : URL_NOT_ALLOWED,
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never calls a plain URL not plain, and the form it is stored in is plain too", () => {
    fc.assert(
      fc.property(plainUrl, (url) => {
        const checked = checkOutboundUrl(url, { allowHosts: [new URL(url).hostname] });
        expect(checked).toMatchObject({ ok: true });
        if (!checked.ok) return;
        // What a registration stores is what every delivery checks again.
        expect(checkOutboundUrl(checked.url.href, { allowHosts: [checked.url.hostname] })).toEqual(
          checked,
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe("URLs not written plainly", () => {
  it("refuses the forms of the issue with the not-plain message, and says why in the log text", () => {
    expect(checkOutboundUrl("http://:@8.8.8.8/")).toEqual({
      ok: false,
      reason: "a user name or password in the URL is not allowed",
      fieldMessage: URL_NOT_PLAIN,
    });
    expect(checkOutboundUrl("http:/8.8.8.8")).toEqual({
      ok: false,
      reason: "the URL does not start with http:// or https:// and a host",
      fieldMessage: URL_NOT_PLAIN,
    });
    expect(checkOutboundUrl("http:\\\\8.8.8.8")).toEqual({
      ok: false,
      reason: "the URL holds a space, a control character or a backslash",
      fieldMessage: URL_NOT_PLAIN,
    });
  });

  it("takes an @ after the host, and a scheme in capitals", () => {
    expect(checkOutboundUrl("https://8.8.8.8/users/@ada?by=a@b#c@d")).toMatchObject({ ok: true });
    expect(checkOutboundUrl("HTTPS://8.8.8.8/")).toMatchObject({ ok: true });
  });
});
