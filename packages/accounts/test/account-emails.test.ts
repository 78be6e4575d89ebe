import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { accountEmail, type MailLinkOriginOptions, mailLinkOrigin } from "../src/account-emails.js";

const token = "Xk3_9-abcdefghijklmnopqrstuvwxyzABCDEFGHIJK";
const origin = "https://app.example";

describe("accountEmail", () => {
  it("builds the sign-up confirmation: subject, link alone on its line, valid 24 hours", () => {
    const link = `https://app.example/confirmations/${token}`;
    expect(accountEmail("email_confirmation", { to: "ada@example.com", origin, token })).toEqual({
      to: "ada@example.com",
      subject: "Confirm your email address",
      text: [
        "Please confirm that ada@example.com is your email address by opening this link:",
        "",
        link,
        "",
        "The link is valid for 24 hours and works once. If you did not sign up, you can ignore this email.",
        "",
      ].join("\n"),
      html: [
        "<p>Please confirm that ada@example.com is your email address by opening this link:</p>",
        `<p><a href="${link}">${link}</a></p>`,
        "<p>The link is valid for 24 hours and works once. If you did not sign up, you can ignore this email.</p>",
        "",
      ].join("\n"),
    });
  });

  it("builds the sign-in link mail with text and HTML parts, valid 15 minutes", () => {
    const mail = accountEmail("magic_link", { to: "ada@example.com", origin, token });
    const link = `https://app.example/magic_link/${token}`;
    expect(mail.subject).toBe("Your sign-in link");
    expect(mail.text).toBe(
      `Open this link to sign in as ada@example.com:\n\n${link}\n\nThe link is valid for 15 minutes and works once. If you did not ask to sign in, you can ignore this email.\n`,
    );
    expect(mail.html).toContain(`<p><a href="${link}">${link}</a></p>`);
    expect(mail.html).toContain("<p>The link is valid for 15 minutes and works once.");
  });

  it("builds the password reset mail, valid 15 minutes", () => {
    const mail = accountEmail("password_reset", { to: "bob@example.com", origin, token });
    const link = `https://app.example/passwords/${token}`;
    expect(mail.to).toBe("bob@example.com");
    expect(mail.subject).toBe("Reset your password");
    expect(mail.text.split("\n")).toEqual([
      "Open this link to choose a new password for bob@example.com:",
      "",
      link,
      "",
      "The link is valid for 15 minutes and works once. If you did not ask for a password reset, you can ignore this email.",
      "",
    ]);
    expect(mail.html).toContain(`<a href="${link}">${link}</a>`);
  });

  it("escapes the address in HTML and leaves it as is in the text part", () => {
    const to = `o'brien&<co>"@example.com`;
    const mail = accountEmail("magic_link", { to, origin: "http://localhost:3000", token });
    expect(mail.html).toContain(
      "<p>Open this link to sign in as o&#39;brien&amp;&lt;co&gt;&quot;@example.com:</p>",
    );
    expect(mail.html).not.toContain(to);
    expect(mail.text).toContain(`sign in as ${to}:`);
    expect(mail.text).toContain(`\nhttp://localhost:3000/magic_link/${token}\n`);
  });

  it("accepts an origin with a trailing slash or in capitals, and normalizes it", () => {
    for (const given of [
      "https://app.example/",
      "HTTPS://App.Example",
      "https://app.example:443",
    ]) {
      const mail = accountEmail("password_reset", { to: "a@b.co", origin: given, token });
      expect(mail.text).toContain(`\nhttps://app.example/passwords/${token}\n`);
    }
  });

  it("refuses, as programmer errors, an origin that is not one and a value that is not a token", () => {
    for (const bad of [
      "app.example",
      "https://app.example/prefix",
      "https://app.example/?next=x",
      "https://app.example#x",
      "https://user:pass@app.example",
      "javascript:alert(1)",
      "ftp://app.example",
    ]) {
      expect(() => accountEmail("magic_link", { to: "a@b.co", origin: bad, token })).toThrow(
        RangeError,
      );
    }
    for (const bad of ["", token.slice(1), `${token.slice(1)}"`, `${token.slice(1)}\n`]) {
      expect(() => accountEmail("magic_link", { to: "a@b.co", origin, token: bad })).toThrow(
        new RangeError("not an emailed token"),
      );
    }
  });
});

const configured: MailLinkOriginOptions = {
  appUrl: "https://app.example",
  allowedOrigins: ["https://www.app.example", "http://localhost:5173"],
};
const requestTo = (url: string, headers: Record<string, string> = {}) =>
  new Request(url, { method: "POST", headers });

describe("mailLinkOrigin", () => {
  it("uses the request's origin when it is APP_URL's or an allowed origin", () => {
    expect(mailLinkOrigin(requestTo("https://app.example/magic_link"), configured)).toBe(
      "https://app.example",
    );
    expect(mailLinkOrigin(requestTo("https://www.app.example/passwords"), configured)).toBe(
      "https://www.app.example",
    );
    expect(mailLinkOrigin(requestTo("http://localhost:5173/passwords"), configured)).toBe(
      "http://localhost:5173",
    );
  });

  it("compares origins in their normal form (case, default port, trailing slash)", () => {
    const options = {
      appUrl: "HTTPS://App.Example:443/",
      allowedOrigins: ["https://WWW.app.example/"],
    };
    expect(mailLinkOrigin(requestTo("https://app.example:443/x"), options)).toBe(
      "https://app.example",
    );
    expect(mailLinkOrigin(requestTo("https://www.APP.example/x"), options)).toBe(
      "https://www.app.example",
    );
  });

  it("answers APP_URL's origin for any other host, scheme or port", () => {
    for (const url of [
      "https://evil.example/passwords",
      "http://app.example/passwords",
      "https://app.example:8443/passwords",
      "https://app.example.evil.example/passwords",
      "http://localhost:3000/passwords",
      "http://127.0.0.1/passwords",
    ]) {
      expect(mailLinkOrigin(requestTo(url), configured)).toBe("https://app.example");
    }
  });

  it("ignores the Origin header, forged or allowed", () => {
    const evilOrigin = requestTo("https://app.example/magic_link", {
      Origin: "https://evil.example",
    });
    expect(mailLinkOrigin(evilOrigin, configured)).toBe("https://app.example");
    const allowedOriginOnForgedHost = requestTo("https://evil.example/magic_link", {
      Origin: "https://www.app.example",
    });
    expect(mailLinkOrigin(allowedOriginOnForgedHost, configured)).toBe("https://app.example");
  });

  it("without APP_URL, uses a loopback or allowed origin and refuses any other", () => {
    for (const url of [
      "http://localhost:3000/x",
      "http://app.localhost:3000/x",
      "http://127.0.0.1:3000/x",
      "http://127.1.2.3/x",
      "http://[::1]:3000/x",
    ]) {
      expect(mailLinkOrigin(requestTo(url), {})).toBe(new URL(url).origin);
    }
    const listed = { allowedOrigins: ["https://app.example"], appUrl: "" };
    expect(mailLinkOrigin(requestTo("https://app.example/x"), listed)).toBe("https://app.example");
    for (const url of [
      "https://evil.example/x",
      "http://localhost.evil.example/x",
      "http://127.0.0.1.evil.example/x",
      "http://10.0.0.1/x",
    ]) {
      expect(() => mailLinkOrigin(requestTo(url), listed)).toThrow(
        `APP_URL is not set, so mail links cannot point to ${new URL(url).origin}: set APP_URL to the app's public address`,
      );
    }
  });

  it("refuses an APP_URL that is not an http(s) URL", () => {
    for (const appUrl of ["app.example", "ftp://app.example", "javascript:alert(1)"]) {
      expect(() => mailLinkOrigin(requestTo("https://app.example/x"), { appUrl })).toThrow(
        "APP_URL is not an http(s) URL",
      );
    }
  });

  it("gives APP_URL's origin to a forged Host header reaching a real server", async () => {
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const started = serve(
        {
          hostname: "127.0.0.1",
          port: 0,
          fetch: (request) =>
            Response.json({
              url: request.url,
              origin: mailLinkOrigin(request, {
                appUrl: "http://app.example",
                allowedOrigins: ["http://www.app.example"],
              }),
            }),
        },
        () => resolve(started),
      );
    });
    const { port } = server.address() as AddressInfo;
    const post = (host: string) =>
      new Promise<{ url: string; origin: string }>((resolve, reject) => {
        const request = httpRequest(
          { host: "127.0.0.1", port, method: "POST", path: "/passwords", headers: { Host: host } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
          },
        );
        request.on("error", reject);
        request.end();
      });
    try {
      expect(await post("evil.example")).toEqual({
        url: "http://evil.example/passwords",
        origin: "http://app.example",
      });
      expect(await post("www.app.example")).toEqual({
        url: "http://www.app.example/passwords",
        origin: "http://www.app.example",
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
