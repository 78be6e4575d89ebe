import { MemoryApiKeyStore } from "@tessera/bearer";
import { routeRequests } from "@tessera/http";
import { MemoryMailer } from "@tessera/mail";
import { MemoryRateLimitStore } from "@tessera/ratelimit";
import { describe, expect, it } from "vitest";
import {
  type AccountHookName,
  type AccountHooks,
  accountRoutes,
  MemoryEmailedTokenStore,
  MemoryUserStore,
  nameColumn,
  type OperatorColumn,
} from "../src/index.js";

const PASSWORD = "correct horse battery staple";
const ORIGIN = "https://app.example";
const CLIENT = "203.0.113.7";
const sameOrigin = { origin: ORIGIN, host: "app.example" };

/** A secret operator column: hooks must not see it. */
const referrerColumn: OperatorColumn = {
  name: "referrer",
  secret: true,
  acceptedAtSignup: true,
  parse: (input) => ({ ok: true, value: typeof input === "string" ? input : null }),
};

/** `accountRoutes` on memory stores, every hook recording its event as `[hook, event]`. */
function mounted(overrides: AccountHooks = {}) {
  const seen: [string, Record<string, unknown>][] = [];
  const hookErrors: [string, AccountHookName][] = [];
  const record = (name: string) => (event: object) => {
    seen.push([name, event as Record<string, unknown>]);
  };
  const users = new MemoryUserStore();
  const mailer = new MemoryMailer();
  const accounts = accountRoutes({
    users,
    apiKeys: new MemoryApiKeyStore(),
    emailedTokens: new MemoryEmailedTokenStore(),
    rateLimits: new MemoryRateLimitStore(),
    secretKeyBase: "a-secret-key-base-of-at-least-32-characters",
    mailer,
    appUrl: ORIGIN,
    passwords: { iterations: 1000 },
    operatorColumns: [nameColumn, referrerColumn],
    hooks: {
      onSignUp: record("onSignUp"),
      onSignIn: record("onSignIn"),
      onUserDeleted: record("onUserDeleted"),
      ...overrides,
    },
    onHookError: (error, hook) => {
      hookErrors.push([(error as Error).message, hook]);
    },
  });
  const handle = routeRequests(accounts.routes);
  const send = async (request: Request) => {
    const response = await handle(request, { clientAddress: CLIENT });
    if (!response) throw new Error(`no route for ${request.method} ${request.url}`);
    return response;
  };
  const json = (path: string, method: string, body?: unknown, token?: string) =>
    send(
      new Request(`${ORIGIN}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const form = (path: string, fields: Record<string, string>, cookie?: string) =>
    send(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...sameOrigin,
          ...(cookie ? { cookie } : {}),
        },
        body: new URLSearchParams(fields),
      }),
    );
  return { send, json, form, seen, hookErrors, users, mailer };
}

const cookieOf = (response: Response) => response.headers.getSetCookie()[0]!.split(";")[0]!;

describe("account hooks", () => {
  it("announces a JSON sign-up with the user without secrets, the method and the request", async () => {
    const app = mounted();
    const body = { email: "Ada@Example.com", password: PASSWORD, name: "Ada", referrer: "ads" };
    const created = await app.json("/api/auth/signup", "POST", body);
    expect(created.status).toBe(201);
    const { id } = await created.json();
    expect(app.seen).toHaveLength(1);
    const [hook, event] = app.seen[0]!;
    expect(hook).toBe("onSignUp");
    expect(event).toMatchObject({
      method: "password",
      clientAddress: CLIENT,
      user: {
        id,
        email: "ada@example.com",
        hasPassword: true,
        confirmedAt: null,
        columns: { name: "Ada" },
      },
    });
    expect((event.request as Request).url).toBe(`${ORIGIN}/api/auth/signup`);
    expect(JSON.stringify(event.user)).not.toMatch(/pbkdf2|ads|passwordDigest/);
  });

  it("announces nothing for a refused sign-up or a failed sign-in", async () => {
    const app = mounted();
    expect(
      (await app.json("/api/auth/signup", "POST", { email: "x", password: "short" })).status,
    ).toBe(422);
    const wrong = { email: "nobody@example.com", password: PASSWORD };
    expect((await app.json("/api/auth/token", "POST", wrong)).status).toBe(401);
    expect((await app.form("/login", wrong)).status).toBe(422);
    expect(app.seen).toEqual([]);
  });

  it("announces a token sign-in and a JSON account deletion", async () => {
    const app = mounted();
    const credentials = { email: "ada@example.com", password: PASSWORD };
    await app.json("/api/auth/signup", "POST", credentials);
    const { token } = await (await app.json("/api/auth/token", "POST", credentials)).json();
    const deleted = await app.json("/api/auth/me", "DELETE", { password: PASSWORD }, token);
    expect(deleted.status).toBe(204);
    expect(app.seen.map(([hook, event]) => [hook, event.method, event.grant])).toEqual([
      ["onSignUp", "password", undefined],
      ["onSignIn", "password", "token"],
      ["onUserDeleted", undefined, undefined],
    ]);
    expect(app.seen[2]![1]).toMatchObject({
      user: { email: "ada@example.com" },
      clientAddress: CLIENT,
    });
    expect(await app.users.findByEmail("ada@example.com")).toBeUndefined();
  });

  it("announces the HTML sign-up, its sign-in, a login and the deletion from the account page", async () => {
    const app = mounted();
    const credentials = { email: "ada@example.com", password: PASSWORD };
    const signup = await app.form("/signup", credentials);
    expect(signup.status).toBe(303);
    const login = await app.form("/login", credentials);
    expect(login.status).toBe(303);
    const deleted = await app.form("/account/delete", { password: PASSWORD }, cookieOf(login));
    expect(deleted.status).toBe(303);
    expect(app.seen.map(([hook, event]) => [hook, event.method, event.grant])).toEqual([
      ["onSignUp", "password", undefined],
      ["onSignIn", "password", "session"],
      ["onSignIn", "password", "session"],
      ["onUserDeleted", undefined, undefined],
    ]);
  });

  it("announces a magic-link sign-in as email_link", async () => {
    const app = mounted();
    await app.json("/api/auth/signup", "POST", { email: "ada@example.com", password: PASSWORD });
    expect((await app.form("/magic_link", { email: "ada@example.com" })).status).toBe(303);
    await Promise.resolve();
    const link = /\/magic_link\/([A-Za-z0-9_-]+)/.exec(app.mailer.sent.at(-1)!.text)!;
    expect((await app.form(`/magic_link/${link[1]}`, {})).status).toBe(303);
    expect(app.seen.at(-1)).toMatchObject([
      "onSignIn",
      { method: "email_link", grant: "session", user: { email: "ada@example.com" } },
    ]);
  });

  it("keeps the answer and the write when a hook throws, and reports it", async () => {
    const app = mounted({
      onSignUp: () => {
        throw new Error("crm unreachable");
      },
    });
    const credentials = { email: "ada@example.com", password: PASSWORD };
    expect((await app.json("/api/auth/signup", "POST", credentials)).status).toBe(201);
    expect(await app.users.findByEmail("ada@example.com")).toBeDefined();
    expect(app.hookErrors).toEqual([["crm unreachable", "onSignUp"]]);
  });

  it("awaits a hook before answering", async () => {
    let finished = false;
    const app = mounted({
      onSignIn: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        finished = true;
      },
    });
    const credentials = { email: "ada@example.com", password: PASSWORD };
    await app.json("/api/auth/signup", "POST", credentials);
    await app.json("/api/auth/token", "POST", credentials);
    expect(finished).toBe(true);
  });

  it("keeps an account beforeUserDeleted refuses, on the JSON route and the page, and deletes it once allowed", async () => {
    let refuse = true;
    const app = mounted({
      beforeUserDeleted: ({ user }) =>
        refuse ? { code: "last_owner", message: `${user.email} still owns Acme.` } : undefined,
    });
    const credentials = { email: "ada@example.com", password: PASSWORD };
    await app.json("/api/auth/signup", "POST", credentials);
    const { token } = await (await app.json("/api/auth/token", "POST", credentials)).json();
    const refused = await app.json("/api/auth/me", "DELETE", { password: PASSWORD }, token);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: { code: "last_owner", message: "ada@example.com still owns Acme.", status: 409 },
    });
    const login = await app.form("/login", credentials);
    const page = await app.form("/account/delete", { password: PASSWORD }, cookieOf(login));
    expect(page.status).toBe(409);
    expect(await page.text()).toContain("ada@example.com still owns Acme.");
    expect(await app.users.findByEmail("ada@example.com")).toBeDefined();
    expect(app.seen.map(([hook]) => hook)).not.toContain("onUserDeleted");

    refuse = false;
    const deleted = await app.json("/api/auth/me", "DELETE", { password: PASSWORD }, token);
    expect(deleted.status).toBe(204);
    expect(await app.users.findByEmail("ada@example.com")).toBeUndefined();
  });

  it("deletes nothing when beforeUserDeleted throws: the veto could not decide", async () => {
    const app = mounted({
      beforeUserDeleted: () => {
        throw new Error("billing is down");
      },
    });
    const credentials = { email: "ada@example.com", password: PASSWORD };
    await app.json("/api/auth/signup", "POST", credentials);
    const { token } = await (await app.json("/api/auth/token", "POST", credentials)).json();
    await expect(app.json("/api/auth/me", "DELETE", { password: PASSWORD }, token)).rejects.toThrow(
      "billing is down",
    );
    expect(await app.users.findByEmail("ada@example.com")).toBeDefined();
  });
});
