import { request } from "node:http";

/**
 * `fetch` from a loopback address of the caller's choosing (on Linux every 127.0.0.0/8 address
 * is this machine's): the dev server takes the client's address from the socket, as Cloudflare
 * does, so this is how a test is many clients. Redirects are never followed.
 */
export async function fetchFrom(
  localAddress: string,
  url: string,
  init: RequestInit = {},
): Promise<Response> {
  // A Request encodes the body (JSON text, a form, multipart) and its content type as fetch would.
  const outgoing = new Request(url, init);
  const body = outgoing.body ? new Uint8Array(await outgoing.arrayBuffer()) : undefined;
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: outgoing.method,
        localAddress,
        headers: {
          ...Object.fromEntries(outgoing.headers),
          ...(body ? { "content-length": String(body.byteLength) } : {}),
        },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("error", reject);
        answer.on("end", () => {
          const headers = new Headers();
          for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
            headers.append(answer.rawHeaders[index]!, answer.rawHeaders[index + 1]!);
          }
          const status = answer.statusCode ?? 0;
          const bodyless = [204, 205, 304].includes(status) || outgoing.method === "HEAD";
          resolve(
            new Response(bodyless ? null : Buffer.concat(chunks), {
              status,
              statusText: answer.statusMessage ?? "",
              headers,
            }),
          );
        });
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}
