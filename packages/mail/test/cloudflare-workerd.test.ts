import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Miniflare, NoOpLog } from "miniflare";
import { describe, expect, it } from "vitest";

// The real `EmailMessage` of `cloudflare:email` exists only in workerd: this runs the adapter
// there, bundled as wrangler would bundle a Worker, against Miniflare's send_email binding,
// which refuses a message workerd would refuse (no Message-ID, a From that is not the sender…).
const worker = `
import { EmailMessage } from "cloudflare:email";
import { cloudflareMailer } from "@tessera/mail/cloudflare";

export default {
  async fetch(request, env) {
    const mailer = cloudflareMailer({ binding: env.EMAIL, EmailMessage, from: "Zoë de Notes <no-reply@notes.test>" });
    try {
      await mailer.send({
        to: "ada@example.com",
        subject: "Réinitialisez votre mot de passe — 🔑",
        text: "Bonjour Ada,\\n\\nhttp://localhost:3000/reset/abc\\n",
        html: "<p>Bonjour Ada</p>",
        idempotencyKey: "mail/42",
      });
      await mailer.send({ to: "bob@example.com", subject: "Plain", text: "Only text" });
      return new Response("sent");
    } catch (error) {
      return new Response(String(error instanceof Error ? error.message : error), { status: 500 });
    }
  },
};
`;

describe("cloudflareMailer on workerd", () => {
  it("hands workerd's send_email binding EmailMessages it accepts", async () => {
    const bundled = await build({
      stdin: {
        contents: worker,
        loader: "js",
        resolveDir: fileURLToPath(new URL(".", import.meta.url)),
      },
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      conditions: ["workerd", "worker", "browser"],
      external: ["cloudflare:*"],
      alias: {
        "@tessera/mail/cloudflare": fileURLToPath(new URL("../src/cloudflare.ts", import.meta.url)),
        "@tessera/core": fileURLToPath(new URL("../../core/src/index.ts", import.meta.url)),
      },
      logLevel: "silent",
    });
    const miniflare = new Miniflare({
      modules: true,
      script: bundled.outputFiles[0]!.text,
      compatibilityDate: "2026-07-01",
      email: { send_email: [{ name: "EMAIL" }] },
      log: new NoOpLog(),
      // The binding prints every message it gets; the test reads the answer instead.
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        stdout.resume();
        stderr.resume();
      },
    });
    try {
      const response = await miniflare.dispatchFetch("http://worker.test/");
      expect(await response.text()).toBe("sent");
      expect(response.status).toBe(200);
    } finally {
      await miniflare.dispose();
    }
  });
});
