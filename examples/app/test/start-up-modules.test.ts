// Start-up loads only what answers requests at once: the libraries of rarer work (passkeys,
// sending mail, JWTs, PostgreSQL for an app on SQLite) are imported by their first use. Each
// cost start-up time and resident memory (issue 33's start-up and idle-memory rows), and one
// eager import anywhere on the path from main.ts brings it back: this test names it.
import { describe, expect, it } from "vitest";
import { runLikeNpmStart } from "./support/start-command.js";

/** Libraries that start-up must not load, with what first loads each. */
const LOADED_ON_FIRST_USE = {
  "@simplewebauthn/server": "the first passkey request",
  "@peculiar/x509": "the first passkey request (through @simplewebauthn/server)",
  nodemailer: "the first mail sent through SMTP",
  jose: "the first JWT issued or checked",
  pg: "an app whose DATABASE_URL names PostgreSQL",
  graphql: "the first GraphQL request",
  // The settings are read by hand (src/setting-readers.ts): zod cost start-up 0.2 s and 14 MiB.
  zod: "no request at all",
};

describe("npm start", () => {
  it("loads no library that only rarer requests need, with SMTP configured", () => {
    const probe = runLikeNpmStart("test/fixtures/start-up-modules-probe.ts", {
      PATH: process.env.PATH ?? "",
      PORT: "0",
      DATABASE_PATH: ":memory:",
      MAIL_ADAPTER: "smtp",
      // Never reached: no mail is sent.
      SMTP_URL: "smtp://127.0.0.1:2525",
      MAIL_FROM: "no-reply@tessera.test",
    });
    expect(probe.stderr).toBe("");
    const { status, packages } = JSON.parse(probe.stdout) as {
      status: number;
      packages: string[];
    };
    expect(status).toBe(200);
    // The probe sees what start-up needs, ESM (hono) and CommonJS (better-sqlite3) alike.
    expect(packages).toEqual(expect.arrayContaining(["hono", "better-sqlite3"]));
    const loadedEagerly = Object.keys(LOADED_ON_FIRST_USE).filter((name) =>
      packages.includes(name),
    );
    expect(
      loadedEagerly.map(
        (name) =>
          `${name}, wanted by ${LOADED_ON_FIRST_USE[name as keyof typeof LOADED_ON_FIRST_USE]}`,
      ),
    ).toEqual([]);
  });
});
