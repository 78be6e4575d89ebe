import type { Clock } from "@tessera/core";
import { type Layout, type PageContext, type RouteContext, routeRequests } from "@tessera/http";
import { MemoryOutbox } from "@tessera/outbox";
import { describe, expect, it } from "vitest";
import type { MailMessage } from "../src/mailer.js";
import { outboxMailer } from "../src/outbox.js";
import { MAIL_PREVIEW_LIMIT, type MailPreviewOptions, mailPreviewRoutes } from "../src/preview.js";

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

const signInMail: MailMessage = {
  to: "ada@example.com",
  subject: "Your sign-in link",
  text: "Open https://app.example/magic_link/abc?x=1&y=2 to sign in.\n",
  html: '<p><a href="https://app.example/magic_link/abc?x=1&amp;y=2">Sign in</a></p>',
};

/** A mail no account route writes: every part of it tries to become markup or script. */
const hostileMail: MailMessage = {
  to: 'eve"<x>@example.com',
  subject: "<script>window.pwned = 1</script>Welcome",
  text: 'See https://app.example/a?b=1&c="x" <b>now</b>',
  html: `<p id="greeting" onclick="alert(1)">Hi</p><script>parent.document.title = "pwned"</script><img src=x onerror="alert(2)">`,
};

/** An outbox on a clock that moves a second per mail, and the mailer writing to it. */
function setUp() {
  const time = { now: T0 };
  const clock: Clock = () => time.now;
  const outbox = new MemoryOutbox({ clock });
  const mailer = outboxMailer({ outbox, writer: outbox });
  const send = async (message: MailMessage) => {
    await mailer.send(message);
    time.now += 1000;
  };
  return { outbox, send };
}

type Options = Omit<MailPreviewOptions, "outbox" | "production"> & { production?: boolean };

/** The preview's routes as one fetch-style handler, a 404 where none matches. */
function preview(outbox: MemoryOutbox, options: Options = {}) {
  const handle = routeRequests(mailPreviewRoutes({ outbox, production: false, ...options }));
  return async (path: string, context: Partial<RouteContext> & Record<string, unknown> = {}) =>
    (await handle(new Request(`http://app.test${path}`), context)) ??
    new Response("no route", { status: 404 });
}

/** The text of the page's `srcdoc` attribute, unescaped: the frame's whole document. */
function frameDocument(page: string): string | undefined {
  const escaped = page.match(/<iframe [^>]*srcdoc="([^"]*)"/)?.[1];
  return escaped
    ?.replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");
}

describe("GET /dev/mail.json", () => {
  it("lists the outbox's mails, newest first, with their status", async () => {
    const { outbox, send } = setUp();
    await send(signInMail);
    await send({ to: "bob@example.com", subject: "Welcome", text: "Hi Bob" });
    const [older] = await outbox.claim("mail", { limit: 1, leaseMs: 60_000, owner: "test" });
    await outbox.complete(older!);
    const response = await preview(outbox)("/dev/mail.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.json()).toEqual([
      {
        to: "bob@example.com",
        subject: "Welcome",
        text: "Hi Bob",
        html: null,
        sent_at: "2026-01-02T03:04:06.000Z",
        status: "pending",
      },
      {
        to: "ada@example.com",
        subject: "Your sign-in link",
        text: signInMail.text,
        html: signInMail.html,
        sent_at: "2026-01-02T03:04:05.000Z",
        status: "sent",
      },
    ]);
  });

  it("leaves out items of the queue that are not mails, and keeps the newest 100", async () => {
    const { outbox, send } = setUp();
    await outbox.enqueue(outbox, "mail", { to: 1, subject: "not a mail" });
    for (let index = 0; index < MAIL_PREVIEW_LIMIT + 1; index++) {
      await send({ to: `user${index}@example.com`, subject: "Hi", text: "Hi" });
    }
    const mails: { to: string }[] = await (await preview(outbox)("/dev/mail.json")).json();
    expect(mails).toHaveLength(MAIL_PREVIEW_LIMIT);
    expect(mails[0]?.to).toBe(`user${MAIL_PREVIEW_LIMIT}@example.com`);
    expect(mails.at(-1)?.to).toBe("user1@example.com");
  });
});

describe("GET /dev/mail", () => {
  it("is a page in the layout listing each mail, linking to its own page and to the JSON", async () => {
    const { outbox, send } = setUp();
    await outbox.enqueue(outbox, "mail", signInMail, { key: "sign-in/42" });
    await send({ to: "bob@example.com", subject: "", text: "Hi Bob" });
    const response = await preview(outbox)("/dev/mail");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const page = await response.text();
    expect(page).toContain("<title>Mail preview</title>");
    expect(page).toContain('<a href="/dev/mail/sign-in%2F42">Your sign-in link</a>');
    expect(page).toContain("<td>bob@example.com</td>");
    expect(page).toContain(">(no subject)</a>");
    expect(page).toContain(
      '<time datetime="2026-01-02T03:04:05.000Z">2026-01-02 03:04:05 UTC</time>',
    );
    expect(page).toContain('<a href="/dev/mail.json">');
    expect(page.indexOf("bob@example.com")).toBeLessThan(page.indexOf("ada@example.com"));
  });

  it("says so when the outbox holds no mail", async () => {
    const page = await (await preview(setUp().outbox)("/dev/mail")).text();
    expect(page).toContain("<p>No mail yet:");
    expect(page).not.toContain("<table");
  });

  it("escapes every part of a mail: a subject with <script> shows as text", async () => {
    const { outbox, send } = setUp();
    await send(hostileMail);
    const page = await (await preview(outbox)("/dev/mail")).text();
    expect(page).not.toContain("<script");
    expect(page).toContain("&lt;script&gt;window.pwned = 1&lt;/script&gt;Welcome");
    expect(page).toContain("<td>eve&quot;&lt;x&gt;@example.com</td>");
  });
});

describe("GET /dev/mail/{key}", () => {
  it("shows one mail: its headers, its HTML part in a sandboxed frame, its text with links", async () => {
    const { outbox } = setUp();
    await outbox.enqueue(outbox, "mail", signInMail, { key: "sign-in/42" });
    const [item] = await outbox.claim("mail", { limit: 1, leaseMs: 60_000, owner: "test" });
    await outbox.fail(item!, "550 <no such mailbox>");
    const response = await preview(outbox)("/dev/mail/sign-in%2F42");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const page = await response.text();
    expect(page).toContain("<title>Mail: Your sign-in link</title>");
    expect(page).toContain("<dt>To</dt><dd>ada@example.com</dd>");
    expect(page).toContain("<dt>Status</dt><dd>failed</dd>");
    expect(page).toContain("<p>Last error: <code>550 &lt;no such mailbox&gt;</code></p>");
    expect(page).toContain('<a href="/dev/mail">All mails</a>');
    // The frame's document is the mail's HTML exactly, its links opening outside the frame.
    expect(frameDocument(page)).toBe(`<base target="_blank">${signInMail.html}`);
    const link = "https://app.example/magic_link/abc?x=1&amp;y=2";
    expect(page).toContain(`<pre class="mail-text">Open <a href="${link}">${link}</a> to sign in.`);
  });

  it("shows a text-only mail without a frame", async () => {
    const { outbox } = setUp();
    await outbox.enqueue(
      outbox,
      "mail",
      { to: "bob@example.com", subject: "Hi", text: "Hi" },
      {
        key: "k1",
      },
    );
    const page = await (await preview(outbox)("/dev/mail/k1")).text();
    expect(page).toContain("<p>This mail has no HTML part.</p>");
    expect(page).not.toContain("<iframe");
  });

  it("answers a 404 page for a key the queue does not hold, or an item that is not a mail", async () => {
    const { outbox } = setUp();
    await outbox.enqueue(outbox, "mail", { to: 1 }, { key: "broken" });
    await outbox.enqueue(outbox, "webhook", signInMail, { key: "other-queue" });
    for (const key of ["no-such-mail", "broken", "other-queue"]) {
      const response = await preview(outbox)(`/dev/mail/${key}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.text()).toContain("<h1>Mail not found</h1>");
    }
  });
});

describe("a mail whose HTML holds a script", () => {
  async function hostilePage(options: Options = {}) {
    const { outbox } = setUp();
    await outbox.enqueue(outbox, "mail", hostileMail, { key: 'k"<1>' });
    const list = await (await preview(outbox, options)("/dev/mail")).text();
    const href = list.match(/<a href="(\/dev\/mail\/[^"]+)">/)?.[1];
    expect(href).toBe("/dev/mail/k%22%3C1%3E");
    return preview(outbox, options)(href!);
  }

  it("has it only inside the frame's srcdoc, which runs no script and has an origin of its own", async () => {
    const page = await (await hostilePage()).text();
    // Not one element of the mail is markup of the page: no script tag, no handler attribute.
    expect(page).not.toContain("<script");
    expect(page).not.toContain("<img");
    expect(page).not.toContain('onclick="');
    expect(page).not.toContain('onerror="');
    const frames = page.match(/<iframe [^>]*>/g) ?? [];
    expect(frames).toHaveLength(1);
    expect(frames[0]).toContain('sandbox="allow-popups allow-popups-to-escape-sandbox"');
    expect(frames[0]).not.toContain("allow-scripts");
    expect(frames[0]).not.toContain("allow-same-origin");
    expect(frameDocument(page)).toBe(`<base target="_blank">${hostileMail.html}`);
    // The text part shows its markup as text, its link cut at the quote.
    expect(page).toContain(
      '<a href="https://app.example/a?b=1&amp;c=">https://app.example/a?b=1&amp;c=</a>&quot;x&quot; &lt;b&gt;now&lt;/b&gt;',
    );
  });

  it("is served with a policy that runs only scripts with this answer's nonce, and no framing", async () => {
    const response = await hostilePage();
    const policy = response.headers.get("content-security-policy") ?? "";
    const nonce = policy.match(/script-src 'nonce-([^']+)'(;|$)/)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    // Each answer its own nonce.
    const again = (await hostilePage()).headers.get("content-security-policy");
    expect(again).not.toContain(nonce);
  });

  it("keeps the app's policy changes, and the nonce of a page middleware in front", async () => {
    const response = await hostilePage({
      pageHeaders: { extendPolicy: { "img-src": ["https://images.example"] } },
    });
    expect(response.headers.get("content-security-policy")).toContain("https://images.example");
    const { outbox, send } = setUp();
    await send(hostileMail);
    const fromMiddleware = await preview(outbox)("/dev/mail", { cspNonce: "bWlkZGxld2FyZQ" });
    expect(fromMiddleware.headers.get("content-security-policy")).toContain(
      "script-src 'nonce-bWlkZGxld2FyZQ'",
    );
  });
});

describe("the app's layout and page context", () => {
  it("frame the pages, with the nonce the answer's policy allows", async () => {
    const { outbox, send } = setUp();
    await send(signInMail);
    const seen: PageContext[] = [];
    const layout: Layout = ({ title, mainHtml, context }) => {
      seen.push(context);
      return `<!doctype html><title>${title}</title><header>${context.signedInEmail}</header><script nonce="${context.cspNonce}">0</script><main id="main">${mainHtml}</main>`;
    };
    const given: string[] = [];
    const routes = mailPreviewRoutes<RouteContext & { readonly user: string }>({
      outbox,
      production: false,
      layout,
      pageContext: (request, context) => {
        given.push(`${new URL(request.url).pathname} ${context.user} ${context.cspNonce}`);
        return { signedInEmail: context.user, flashes: [], cspNonce: context.cspNonce };
      },
    });
    const response = await routeRequests(routes)(new Request("http://app.test/dev/mail"), {
      user: "dev@example.com",
    });
    const page = await response!.text();
    expect(page).toContain("<header>dev@example.com</header>");
    expect(page).toContain('<main id="main"><h1>Mail preview</h1>');
    const nonce = seen[0]?.cspNonce;
    expect(given).toEqual([`/dev/mail dev@example.com ${nonce}`]);
    expect(page).toContain(`<script nonce="${nonce}">`);
    expect(response!.headers.get("content-security-policy")).toContain(
      `script-src 'nonce-${nonce}'`,
    );
  });

  it("a page context without a nonce gets a policy whose nonce no tag of the page carries", async () => {
    const { outbox } = setUp();
    const response = await preview(outbox, {
      pageContext: () => ({ signedInEmail: undefined, flashes: [], cspNonce: undefined }),
    })("/dev/mail");
    const nonce = response.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await response.text()).not.toContain(nonce);
  });
});

describe("mailPreviewRoutes", () => {
  it("builds no route in production", () => {
    expect(mailPreviewRoutes({ outbox: setUp().outbox, production: true })).toEqual([]);
  });

  it("mounts the three routes under another base path", async () => {
    const { outbox } = setUp();
    await outbox.enqueue(outbox, "mail", signInMail, { key: "k1" });
    const routes = mailPreviewRoutes({ outbox, production: false, basePath: "/_tools/mail" });
    expect(routes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      "GET /_tools/mail",
      "GET /_tools/mail.json",
      "GET /_tools/mail/:key",
    ]);
    const get = preview(outbox, { basePath: "/_tools/mail" });
    const list = await (await get("/_tools/mail")).text();
    expect(list).toContain('<a href="/_tools/mail/k1">Your sign-in link</a>');
    expect(list).toContain('<a href="/_tools/mail.json">');
    expect(await (await get("/_tools/mail/k1")).text()).toContain(
      '<a href="/_tools/mail">All mails</a>',
    );
    expect((await get("/dev/mail")).status).toBe(404);
  });

  it.each(["", "dev/mail", "/dev/mail/", "/dev/:kind", "/dev mail"])(
    "refuses the base path %j",
    (basePath) => {
      expect(() =>
        mailPreviewRoutes({ outbox: setUp().outbox, production: false, basePath }),
      ).toThrow(TypeError);
    },
  );
});
