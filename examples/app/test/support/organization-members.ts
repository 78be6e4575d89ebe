// The people of an organization in the running example app, made as a client makes them: users
// who sign up and confirm their address through the mailed link, an organization one of them
// creates, and members invited by mail who accept with the link's token.
import type { MemoryMailer } from "@tessera/mail";
import { expect } from "vitest";
import { linkIn } from "./browser.js";
import { callJsonApi } from "./json-api.js";
import { newClientAddress, type TestServer } from "./test-server.js";

/** A confirmed user of the app: the address and a bearer token. */
export interface ConfirmedUser {
  readonly email: string;
  readonly token: string;
}

/** A new organization: its slug, and its invited members in the order of their roles. */
export interface OrganizationWithMembers {
  readonly slug: string;
  readonly members: ConfirmedUser[];
}

/** How a suite makes users and organizations on its server (whose mailer is `mailer`). */
export interface OrganizationMembers {
  /** A user who signed up and confirmed their address through the mailed link. */
  confirmedUser(name: string): Promise<ConfirmedUser>;
  /** A new organization of `owner`'s, with a confirmed user of each role in `roles` invited in. */
  organizationWith(
    owner: { readonly token: string },
    roles: readonly string[],
  ): Promise<OrganizationWithMembers>;
}

/** Makes users and organizations on `server`, reading the mails `mailer` took. */
export function organizationMembers(
  server: Pick<TestServer, "url" | "deliverMail">,
  mailer: MemoryMailer,
): OrganizationMembers {
  const api = (method: string, path: string, token?: string, json?: unknown) =>
    callJsonApi(server.url, method, path, token, json);

  async function confirmedUser(name: string): Promise<ConfirmedUser> {
    const email = `${name}.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const password = "correct horse battery staple";
    const form = (path: string, body: Record<string, string>) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: server.url,
          "x-forwarded-for": newClientAddress(),
        },
        body: new URLSearchParams(body),
      });
    expect((await form("/signup", { email, password })).status).toBe(303);
    await server.deliverMail();
    const confirmation = linkIn(mailer.last(email)!.text, "/confirmations");
    expect((await form(confirmation.path, {})).status).toBe(303);
    // From an address of its own: a suite makes more users a minute than one address may sign in.
    const answer = await fetch(`${server.url}/api/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": newClientAddress() },
      body: JSON.stringify({ email, password }),
    });
    expect(answer.status).toBe(200);
    const { token } = (await answer.json()) as { token: string };
    return { email, token };
  }

  async function organizationWith(
    owner: { readonly token: string },
    roles: readonly string[],
  ): Promise<OrganizationWithMembers> {
    const name = `Team ${crypto.randomUUID().slice(0, 8)}`;
    const created = await api("POST", "/api/orgs", owner.token, { name });
    expect(created.status).toBe(201);
    const slug = created.body.slug as string;
    const members = [];
    for (const role of roles) {
      const member = await confirmedUser(role);
      const invited = await api("POST", `/api/orgs/${slug}/invitations`, owner.token, {
        email: member.email,
        role,
      });
      expect(invited.status).toBe(201);
      await server.deliverMail();
      const { token } = linkIn(mailer.last(member.email)!.text, "/invitations");
      expect((await api("POST", `/api/invitations/${token}/accept`, member.token)).status).toBe(
        200,
      );
      members.push(member);
    }
    return { slug, members };
  }

  return { confirmedUser, organizationWith };
}
