import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the double received. */
export interface PwnedRangeRequestSeen {
  readonly method: string;
  /** The path and query, as sent. */
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
}

/**
 * How the double answers: `ranges` as Have I Been Pwned does; `stall` never answers; `error`
 * a 500; `garbage` a 200 HTML page; `empty` a 200 with no line; `huge` a range far over 128 KiB.
 */
export type PwnedDoubleMode = "ranges" | "stall" | "error" | "garbage" | "empty" | "huge";

/**
 * Have I Been Pwned's Pwned Passwords range API on 127.0.0.1, as documented
 * (https://haveibeenpwned.com/API/v3#PwnedPasswords): `GET /range/{5 hex, any case}` answers
 * 200 `text/plain`, one `SUFFIX:COUNT` line per hash of the range (35 upper-case hex digits),
 * CRLF between lines; with `Add-Padding: true`, padded to 800-1,000 lines with random suffixes
 * of count 0. Every request is recorded.
 */
export interface PwnedPasswordsDouble {
  /** The base URL, `http://127.0.0.1:<port>` (the checker adds `/range/…`). */
  readonly url: string;
  readonly requests: PwnedRangeRequestSeen[];
  mode: PwnedDoubleMode;
  /** Makes `password` known, seen `count` times. */
  breach(password: string, count: number): void;
  /** Adds a padding line (count 0) with `password`'s suffix to its range when padding is asked. */
  padWith(password: string): void;
  close(): Promise<void>;
}

/** The upper-case hex SHA-1 of a password, as the range API writes hashes. */
export function sha1Upper(password: string): string {
  return createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();
}

const randomSuffix = () => randomBytes(18).toString("hex").slice(0, 35).toUpperCase();

/** Starts a {@link PwnedPasswordsDouble} in `ranges` mode. */
export async function startPwnedPasswordsDouble(): Promise<PwnedPasswordsDouble> {
  const requests: PwnedRangeRequestSeen[] = [];
  const known = new Map<string, number>();
  const padding = new Set<string>();
  const double: { -readonly [Key in keyof PwnedPasswordsDouble]: PwnedPasswordsDouble[Key] } = {
    url: "",
    requests,
    mode: "ranges",
    breach: (password, count) => known.set(sha1Upper(password), count),
    padWith: (password) => padding.add(sha1Upper(password)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function rangeLines(prefix: string, padded: boolean): string[] {
    const lines = new Map<string, number>();
    for (const [hash, count] of known) if (hash.startsWith(prefix)) lines.set(hash.slice(5), count);
    if (padded) {
      for (const hash of padding) if (hash.startsWith(prefix)) lines.set(hash.slice(5), 0);
      const target = 800 + Math.floor(Math.random() * 201);
      while (lines.size < target) lines.set(randomSuffix(), 0);
    }
    return [...lines]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([suffix, count]) => `${suffix}:${count}`);
  }

  const server = createServer((request, response) => {
    const path = request.url ?? "";
    requests.push({ method: request.method ?? "", path, headers: request.headers });
    request.resume();
    if (double.mode === "stall") return;
    if (double.mode === "error") return response.writeHead(500).end("Internal Server Error");
    if (double.mode === "garbage") {
      return response
        .writeHead(200, { "content-type": "text/html" })
        .end("<html><body>Maintenance</body></html>");
    }
    const range = /^\/range\/([0-9A-Fa-f]{5})$/.exec(path);
    if (request.method !== "GET" || !range) {
      return response.writeHead(400).end("The hash prefix was not in a valid format");
    }
    const text = (body: string) =>
      response.writeHead(200, { "content-type": "text/plain" }).end(body);
    if (double.mode === "empty") return text("");
    const padded = request.headers["add-padding"] === "true";
    const lines = rangeLines(range[1]!.toUpperCase(), padded);
    if (double.mode === "huge") {
      while (lines.length < 10_000) lines.push(`${randomSuffix()}:0`);
    }
    text(lines.join("\r\n"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  double.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return double;
}
