import type { RecordingService } from "../../../../test/support/recording-service.js";
import { Browser } from "./browser.js";
import { newClientAddress, type TestServer } from "./test-server.js";

/** The owner's credentials: bodies may carry them, so the fuzzer sometimes gets them right. */
export const OWNER = { email: "owner@fuzz.example", password: "owner passphrase 31" };
const STRANGER = { email: "stranger@fuzz.example", password: "stranger passphrase 31" };

/**
 * What the fuzzed requests refer to, by placeholder name (`{owner}`, `{post}`...): credentials
 * of the owner and of a stranger, records of every model with files, a render job and its
 * callback token. "victim" records are the ones delete routes may take, so the others stay for
 * the pages and downloads.
 */
export type FuzzFixtures = Readonly<Record<string, string>>;

async function call(
  server: TestServer,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; form?: FormData } = {},
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { "x-forwarded-for": newClientAddress() };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.form ?? (options.json === undefined ? null : JSON.stringify(options.json)),
  });
  if (!response.ok) {
    throw new Error(
      `fixture ${method} ${path} answered ${response.status}: ${await response.text()}`,
    );
  }
  return response.status === 204 ? {} : ((await response.json()) as Record<string, unknown>);
}

async function signUp(server: TestServer, credentials: typeof OWNER): Promise<string> {
  await call(server, "POST", "/api/auth/signup", { json: credentials });
  return (await call(server, "POST", "/api/auth/token", { json: credentials })).token as string;
}

async function signIn(server: TestServer, credentials: typeof OWNER): Promise<string> {
  const browser = new Browser(server.url);
  const signedIn = await browser.post("/login", credentials);
  if (signedIn.status !== 303 || !browser.sessionCookie) {
    throw new Error(`fixture login answered ${signedIn.status}`);
  }
  return browser.sessionCookie;
}

function file(name: string, type: string, text: string): FormData {
  const form = new FormData();
  form.append("file", new Blob([text], { type }), name);
  return form;
}

/**
 * Creates the fixtures through the app's own routes. `service` is the render service: the job's
 * callback token is read from the submission it received.
 */
export async function createFuzzFixtures(
  server: TestServer,
  service: RecordingService,
): Promise<FuzzFixtures> {
  const owner = await signUp(server, OWNER);
  const stranger = await signUp(server, STRANGER);
  const ownerKey = (
    await call(server, "POST", "/api/auth/keys", { token: owner, json: { name: "fuzz" } })
  ).key as string;
  const victimKey = (
    await call(server, "POST", "/api/auth/keys", { token: owner, json: { name: "victim" } })
  ).api_key as { id: number };
  // A key's first use writes `last_used_at`: done here, so no fuzzed request makes that write.
  await call(server, "GET", "/api/auth/me", { token: ownerKey });

  const create = async (plural: string, json: unknown, token = owner) =>
    call(server, "POST", `/api/${plural}`, { token, json });
  const post = await create("posts", { title: "Fixture", status: "draft" });
  const victimPost = await create("posts", { title: "Victim", status: "draft" });
  const strangerPost = await create("posts", { title: "Not yours", status: "draft" }, stranger);
  for (const id of [post.id, victimPost.id]) {
    await call(server, "PUT", `/api/posts/${id}/cover`, {
      token: owner,
      form: file("a.txt", "text/plain", "cover"),
    });
  }
  const photo = await call(server, "POST", `/api/posts/${post.id}/photos`, {
    token: owner,
    form: file("p.txt", "text/plain", "photo"),
  });
  const victimPhoto = await call(server, "POST", `/api/posts/${victimPost.id}/photos`, {
    token: owner,
    form: file("v.txt", "text/plain", "victim photo"),
  });
  const comment = await create("comments", { post_id: post.id, body: "A comment" });
  const victimComment = await create("comments", { post_id: post.id, body: "Victim" });
  const label = await create("labels", { name: "fixture-label" });
  const victimLabel = await create("labels", { name: "victim-label" });
  const reaction = await create("reactions", {
    target_type: "post",
    target_id: post.id,
    kind: "like",
  });
  const victimReaction = await create("reactions", {
    target_type: "comment",
    target_id: comment.id,
    kind: "love",
  });
  const note = await create("notes", { title: "Fixture note" });
  const victimNote = await create("notes", { title: "Victim note" });
  const org = await call(server, "POST", "/api/orgs", { token: owner, json: { name: "Fuzz org" } });
  const victimOrg = await call(server, "POST", "/api/orgs", {
    token: owner,
    json: { name: "Victim org" },
  });
  const project = await create(`orgs/${org.slug}/projects`, { name: "Fixture", status: "active" });
  const victimProject = await create(`orgs/${org.slug}/projects`, {
    name: "Victim",
    status: "active",
  });
  const orgKey = (
    await call(server, "POST", `/api/orgs/${org.slug}/keys`, {
      token: owner,
      json: { name: "Fuzz key", role: "member" },
    })
  ).key as string;
  const victimOrgKey = (
    await call(server, "POST", `/api/orgs/${org.slug}/keys`, {
      token: owner,
      json: { name: "Victim key", role: "viewer" },
    })
  ).api_key as { id: number };
  // Its first use writes `last_used_at`, as the owner's key's does: done here too.
  await call(server, "GET", `/api/orgs/${org.slug}/projects`, { token: orgKey });
  const ownerId = (await call(server, "GET", "/api/auth/me", { token: owner })).id;
  const job = await call(server, "POST", "/api/render_jobs", {
    token: owner,
    json: { prompt: "fox" },
  });
  const callback = new URL(JSON.parse(service.requests.at(-1)!.body).webhook as string);

  return {
    owner,
    "owner-key": ownerKey,
    stranger,
    session: await signIn(server, OWNER),
    "spare-session": await signIn(server, STRANGER),
    "victim-key": String(victimKey.id),
    post: String(post.id),
    "victim-post": String(victimPost.id),
    "stranger-post": String(strangerPost.id),
    photo: String(photo.id),
    "victim-photo": String(victimPhoto.id),
    comment: String(comment.id),
    "victim-comment": String(victimComment.id),
    label: String(label.public_id),
    "victim-label": String(victimLabel.public_id),
    reaction: String(reaction.id),
    "victim-reaction": String(victimReaction.id),
    note: String(note.id),
    "victim-note": String(victimNote.id),
    job: String(job.id),
    "job-token": callback.searchParams.get("token")!,
    org: String(org.slug),
    "victim-org": String(victimOrg.slug),
    "org-key": orgKey,
    "victim-org-key": String(victimOrgKey.id),
    "owner-id": String(ownerId),
    project: String(project.id),
    "victim-project": String(victimProject.id),
  };
}
