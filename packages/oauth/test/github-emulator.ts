import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { encodeBase64url, randomToken, sha256 } from "@tessera/crypto";

/** A GitHub account as the REST API describes it. */
export interface GitHubAccount {
  readonly id: number;
  readonly login: string;
  readonly emails: readonly { email: string; primary: boolean; verified: boolean }[];
}

/**
 * A GitHub stand-in on 127.0.0.1 for the preset's HTTP exchanges, answering as GitHub's
 * documentation says it does (github.com cannot be reached from tests): the authorize page of an
 * app the signed-in account already authorized (an immediate redirect with a code), the token
 * endpoint (client secret in the body, PKCE S256 checked, errors as 200 JSON like GitHub's), and
 * `GET /api/v3/user` and `/user/emails` behind the token, refusing requests without User-Agent.
 */
export async function startGitHubEmulator(client: { clientId: string; clientSecret: string }) {
  const codes = new Map<
    string,
    { account: GitHubAccount; challenge: string; redirectUri: string }
  >();
  const tokens = new Map<string, GitHubAccount>();
  const state = { signedIn: undefined as GitHubAccount | undefined };
  const requests: string[] = [];

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    response.end(JSON.stringify(body));
  };
  const readBody = async (request: IncomingMessage) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    return new URLSearchParams(body);
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    requests.push(`${request.method} ${url.pathname}`);
    if (request.method === "GET" && url.pathname === "/login/oauth/authorize") {
      const query = url.searchParams;
      if (query.get("client_id") !== client.clientId || !state.signedIn) {
        return json(response, 404, { message: "Not Found" });
      }
      const code = randomToken().slice(0, 20);
      codes.set(code, {
        account: state.signedIn,
        challenge:
          query.get("code_challenge_method") === "S256" ? (query.get("code_challenge") ?? "") : "",
        redirectUri: query.get("redirect_uri") ?? "",
      });
      const back = new URL(query.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", query.get("state") ?? "");
      response.writeHead(302, { location: back.href });
      return response.end();
    }
    if (request.method === "POST" && url.pathname === "/login/oauth/access_token") {
      const form = await readBody(request);
      if (
        form.get("client_id") !== client.clientId ||
        form.get("client_secret") !== client.clientSecret
      ) {
        return json(response, 200, {
          error: "incorrect_client_credentials",
          error_description: "The client_id and/or client_secret passed are incorrect.",
        });
      }
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      if (
        !grant ||
        grant.redirectUri !== form.get("redirect_uri") ||
        grant.challenge !== encodeBase64url(sha256(verifier))
      ) {
        return json(response, 200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        });
      }
      const token = `gho_${randomToken().slice(0, 36)}`;
      tokens.set(token, grant.account);
      return json(response, 200, {
        access_token: token,
        token_type: "bearer",
        scope: "user:email",
      });
    }
    if (!request.headers["user-agent"]) {
      return json(response, 403, { message: "Request forbidden by administrative rules." });
    }
    const account = tokens.get((request.headers.authorization ?? "").replace(/^Bearer /, ""));
    if (!account) return json(response, 401, { message: "Bad credentials" });
    if (url.pathname === "/api/v3/user") {
      // `email` is the public address the user chose to show: here one that is not verified.
      return json(response, 200, {
        login: account.login,
        id: account.id,
        email: "public@example.com",
      });
    }
    if (url.pathname === "/api/v3/user/emails") {
      return json(
        response,
        200,
        account.emails.map((entry) => ({ ...entry, visibility: entry.primary ? "private" : null })),
      );
    }
    return json(response, 404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    serverUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Every request the emulator received, `METHOD /path`. */
    requests,
    /** Signs an account in at "GitHub"; it has authorized the app already. */
    signIn(account: GitHubAccount) {
      state.signedIn = account;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
