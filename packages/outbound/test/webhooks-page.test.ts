// The webhooks page, rendered directly: every value an endpoint's owner or its server chose (URL,
// description, event types, the answer, the typed form, the messages) is escaped.
import { plainLayout } from "@tessera/http";
import type { LoggedAttempt, WebhookEndpoint } from "@tessera/outbound";
import { describe, expect, it } from "vitest";
import { renderWebhooksPage } from "../src/routes/webhooks-page.js";

const HOSTILE = `<script>alert("x")</script> & 'y'`;
const ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;";
const NOW = Date.UTC(2026, 0, 2, 12);

const endpoint: WebhookEndpoint = {
  id: `ep_"1`,
  ownerId: 1,
  url: `https://hooks.example/${HOSTILE}`,
  eventTypes: ["post.created", `<e>`],
  description: HOSTILE,
  enabled: true,
  headerNames: [],
  rateLimit: null,
  disabledAt: null,
  createdAt: NOW,
  updatedAt: NOW,
};

const attempt: LoggedAttempt = {
  id: 1,
  messageId: `msg_<1>`,
  endpointId: endpoint.id,
  attempt: 2,
  status: "failed",
  responseStatus: 500,
  response: HOSTILE,
  durationMs: 5,
  createdAt: NOW - 1000,
  eventType: `<e>`,
};

function page(): string {
  return renderWebhooksPage({
    layout: plainLayout,
    pagePath: "/account/webhooks",
    context: { signedInEmail: "ada@example.com", flashes: [], cspNonce: undefined },
    endpoints: [{ endpoint, attempts: [attempt] }],
    eventTypes: ["post.created", `<e>`],
    form: { url: HOSTILE, description: HOSTILE, events: [`<e>`], errors: { url: [HOSTILE, "b"] } },
    now: NOW,
  });
}

describe("the webhooks page's view", () => {
  it("escapes the endpoint, its attempts, the typed form and the messages", () => {
    const html = page();
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<e>");
    expect(html).toContain(`<h2><code>https://hooks.example/${ESCAPED}</code></h2>`);
    expect(html).toContain(`<p>${ESCAPED} · post.created, &lt;e&gt; · Enabled</p>`);
    expect(html).toContain(`<td>&lt;e&gt;</td>\n<td>2</td>\n<td>failed (500)</td>`);
    expect(html).toContain(`<td><code>${ESCAPED}</code></td>`);
    expect(html).toContain(`action="/account/webhooks/messages/msg_&lt;1&gt;/replay"`);
    expect(html).toContain(`action="/account/webhooks/ep_&quot;1/disable"`);
    expect(html).toContain(`<ul class="errors"><li>url: ${ESCAPED}, b</li></ul>`);
    expect(html).toContain(`name="url" required value="${ESCAPED}"`);
    expect(html).toContain(`maxlength="1000" value="${ESCAPED}"`);
    expect(html).toContain(
      `<label><input type="checkbox" name="events" value="&lt;e&gt;" checked> &lt;e&gt;</label>`,
    );
  });
});
