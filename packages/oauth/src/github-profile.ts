import * as oauth from "oauth4webapi";
import type { GitHubProvider } from "./provider.js";
import type { ProviderRequestOptions } from "./provider-http.js";
import { type ProviderProfile, providerProfile } from "./provider-profile.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One GET of GitHub's REST API with the user's token; its JSON body. */
async function githubGet(
  provider: GitHubProvider,
  accessToken: string,
  path: string,
  options: ProviderRequestOptions,
): Promise<unknown> {
  const headers = new Headers({
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
    // GitHub refuses API requests without a User-Agent.
    "user-agent": "tessera-oauth",
  });
  const url = new URL(`${provider.apiUrl}${path}`);
  const response = await oauth.protectedResourceRequest(
    accessToken,
    "GET",
    url,
    headers,
    null,
    options,
  );
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`GitHub answered ${response.status} to GET ${path}`);
  }
  return response.json();
}

/**
 * GitHub's profile: the numeric user id (stable, unlike the login, which users may rename) and
 * the primary address from `GET /user/emails`, verified or not as GitHub says. `GET /user`'s
 * `email` is not used: it is the public address the user chose to show, verified or not.
 * @throws for an answer that is not GitHub's shape.
 */
export async function githubProfile(
  provider: GitHubProvider,
  accessToken: string,
  options: ProviderRequestOptions,
): Promise<ProviderProfile> {
  const user = await githubGet(provider, accessToken, "/user", options);
  const id = isRecord(user) ? user.id : undefined;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) {
    throw new Error("GitHub's GET /user answer has no numeric id");
  }
  const emails = await githubGet(provider, accessToken, "/user/emails", options);
  if (!Array.isArray(emails)) throw new Error("GitHub's GET /user/emails answer is not a list");
  const primary = emails.find((entry) => isRecord(entry) && entry.primary === true);
  return providerProfile(
    String(id),
    isRecord(primary) ? primary.email : undefined,
    isRecord(primary) ? primary.verified : undefined,
  );
}
