// An organization's webhook endpoints: the endpoint routes under /api/orgs/{slug}, for members
// whose role has webhooks:manage; its projects' events reach them, signed, and never its
// members' own endpoints; its endpoints are stored apart from users' (owner -<id>) and go with it.
import { MemoryMailer } from "@tessera/mail";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { callJsonApi } from "./support/json-api.js";
import { type OrganizationMembers, organizationMembers } from "./support/organization-members.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

const mailer = new MemoryMailer();
let server: TestServer;
let receiver: RecordingService;
let people: OrganizationMembers;

beforeAll(async () => {
  receiver = await startRecordingService({ status: 204, body: "" });
  server = await startTestServer(
    { TRUST_PROXY: "1", OUTBOUND_ALLOW_HOSTS: "127.0.0.1", OUTBOUND_RETRY_SCHEDULE: "0,0,0" },
    { mailer },
  );
  people = organizationMembers(server, mailer);
});
afterAll(async () => {
  await server.stop();
  await receiver.close();
});

const api = (method: string, path: string, token?: string, json?: unknown) =>
  callJsonApi(server.url, method, path, token, json);
const deliveriesTo = (path: string) => receiver.requests.filter((request) => request.path === path);

describe("an organization's webhook endpoints", () => {
  it("receive its projects' events, apart from its members' own endpoints, for roles that manage webhooks", async () => {
    const owner = await people.confirmedUser("owner");
    const { slug, members } = await people.organizationWith(owner, ["member"]);
    const member = members[0]!;
    const origin = new URL(receiver.url).origin;
    const orgEndpoints = `/api/orgs/${slug}/webhook_endpoints`;

    const added = await api("POST", orgEndpoints, owner.token, {
      url: `${origin}/org-hook`,
      events: ["project.*"],
    });
    expect(added.status).toBe(201);
    const secret = added.body.secret as string;
    const mine = await api("POST", "/api/webhook_endpoints", owner.token, {
      url: `${origin}/own-hook`,
    });
    expect(mine.status).toBe(201);

    // Each list holds its own owner's endpoint only; the organization's is stored under -<id>.
    expect(
      (await api("GET", orgEndpoints, owner.token)).body.map((e: { id: string }) => e.id),
    ).toEqual([added.body.id]);
    expect(
      (await api("GET", "/api/webhook_endpoints", owner.token)).body.map(
        (e: { id: string }) => e.id,
      ),
    ).toEqual([mine.body.id]);
    const [organization] = await server.query<{ id: number }>(
      "SELECT id FROM organizations WHERE slug = ?",
      slug,
    );
    const owners = await server.query<{ owner_id: number }>(
      "SELECT owner_id FROM webhook_endpoints WHERE id = ?",
      added.body.id,
    );
    expect(owners.map((row) => Number(row.owner_id))).toEqual([-organization!.id]);

    // A member without webhooks:manage is refused, a stranger does not see the organization.
    const refused = await api("GET", orgEndpoints, member.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("You need the webhooks:manage permission.");
    const stranger = await people.confirmedUser("stranger");
    expect((await api("GET", orgEndpoints, stranger.token)).status).toBe(404);

    const project = await api("POST", `/api/orgs/${slug}/projects`, member.token, {
      name: "Launch",
      status: "active",
    });
    expect(project.status).toBe(201);
    await server.deliverWebhooks();
    await expect.poll(() => deliveriesTo("/org-hook").length).toBe(1);
    const [delivery] = deliveriesTo("/org-hook");
    const event = new Webhook(secret).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as { type: string; data: unknown };
    expect(event.type).toBe("project.created");
    expect(event.data).toEqual(project.body);
    expect(deliveriesTo("/own-hook")).toEqual([]);

    // Deleting the organization deletes its endpoints (and, by their key, its projects).
    expect((await api("DELETE", `/api/orgs/${slug}`, owner.token)).status).toBe(204);
    const left = await server.query<{ id: string }>(
      "SELECT id FROM webhook_endpoints WHERE owner_id = ?",
      -organization!.id,
    );
    expect(left).toEqual([]);
    expect((await api("GET", "/api/webhook_endpoints", owner.token)).body).toHaveLength(1);
  });
});
