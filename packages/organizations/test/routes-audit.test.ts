// The organization routes' events in an audit trail (`audit`), over the memory store and the
// accounts' memory log: what each change records, and what a refused change, an invitation
// whose mail was not sent, or a role given again leaves out.
import { type AuditEvent, auditTrail } from "@tessera/accounts";
import { MemoryAuditLog } from "@tessera/accounts/testing";
import type { Authenticate } from "@tessera/http";
import { routeRequests, unauthorized } from "@tessera/http";
import { type Mailer, MemoryMailer } from "@tessera/mail";
import { describe, expect, it } from "vitest";
import { MemoryOrganizationStore } from "../src/memory-organization-store.js";
import {
  ORGANIZATION_AUDIT_EVENT_TYPES,
  type OrganizationUser,
  organizationRoutes,
} from "../src/routes.js";

const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);
const PEOPLE: Readonly<Record<number, OrganizationUser>> = {
  1: { id: 1, email: "ann@example.com", confirmedAt: T0 },
  2: { id: 2, email: "bob@example.com", confirmedAt: T0 },
};

const bearerUser: Authenticate<{ readonly user: OrganizationUser }> = async (request, context) => {
  const person = PEOPLE[Number(request.headers.get("authorization")?.replace(/^Bearer /, ""))];
  return person
    ? { ok: true, value: { user: person } }
    : { ok: false, response: unauthorized({}, context.locale) };
};

function mounted(mailer: Mailer = new MemoryMailer()) {
  const log = new MemoryAuditLog();
  const handle = routeRequests(
    organizationRoutes({
      organizations: new MemoryOrganizationStore((id) => ({
        email: PEOPLE[id]!.email,
        name: null,
      })),
      authenticate: bearerUser,
      mailer,
      clock: () => T0,
      audit: auditTrail(log, () => T0),
      reportMailError: () => {},
    }),
  );
  const send = async (method: string, path: string, who: number, body?: unknown) => {
    const request = new Request(`http://127.0.0.1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${who}`,
        "content-type": "application/json",
        "user-agent": "AuditTest/1",
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const response = await handle(request, { clientAddress: "198.51.100.7" });
    if (!response) throw new Error(`no route for ${method} ${path}`);
    return response;
  };
  const events = async (): Promise<AuditEvent[]> =>
    (await log.list({ limit: 100 })).slice().reverse();
  return { send, events };
}

describe("organization events in the audit trail", () => {
  it("names every type it records", () => {
    expect(ORGANIZATION_AUDIT_EVENT_TYPES.every((type) => type.startsWith("organization."))).toBe(
      true,
    );
  });

  it("records a creation with the request's address and User-Agent, and a refused one not at all", async () => {
    const { send, events } = mounted();
    expect((await send("POST", "/api/orgs", 1, { name: "Acme", slug: "acme" })).status).toBe(201);
    expect((await send("POST", "/api/orgs", 2, { name: "Other", slug: "acme" })).status).toBe(422);
    const recorded = await events();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      type: "organization.created",
      userId: 1,
      actorId: null,
      ip: "198.51.100.7",
      userAgent: "AuditTest/1",
      details: { organization_slug: "acme" },
      at: T0,
    });
  });

  it("records no invitation whose mail could not be sent, and no role given again", async () => {
    let failing = true;
    const memory = new MemoryMailer();
    const mailer: Mailer = {
      send: async (message) => {
        if (failing) throw new Error("mail down");
        await memory.send(message);
      },
    };
    const { send, events } = mounted(mailer);
    await send("POST", "/api/orgs", 1, { name: "Acme", slug: "acme" });
    const invite = () =>
      send("POST", "/api/orgs/acme/invitations", 1, { email: PEOPLE[2]!.email, role: "member" });
    expect((await invite()).status).toBe(503);
    failing = false;
    expect((await invite()).status).toBe(201);
    const token = /invitations\/([A-Za-z0-9_-]+)/.exec(memory.sent[0]!.text)![1]!;
    expect((await send("POST", `/api/invitations/${token}/accept`, 2)).status).toBe(200);
    const again = await send("PATCH", "/api/orgs/acme/members/2", 1, { role: "member" });
    expect(again.status).toBe(200);

    const recorded = await events();
    expect(recorded.map((event) => [event.type, event.userId])).toEqual([
      ["organization.created", 1],
      ["organization.invitation_created", 1],
      ["organization.member_added", 2],
    ]);
    expect(JSON.stringify(recorded)).not.toContain(token);
  });
});
