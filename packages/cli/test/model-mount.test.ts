// The lines that mount a model in src/app.ts of a `tessera new` project, and how `--mount`
// writes them there: in Biome's import order, at the marked end of the routes list, once. The
// projects of test/new-project.test.ts type-check and run what is written.
import { describe, expect, it } from "vitest";
import { compareNames, compareSources, withImports } from "../src/import-block.js";
import { modelMount, mountInto, ROUTES_MARKER } from "../src/model-mount.js";
import { renderTemplate } from "../src/template.js";

const HONO_APP = renderTemplate("new-app-hono.ts", { routesMarker: ROUTES_MARKER });
const note = modelMount({ name: "note", owner: "user", htmlOnly: false, attachments: false });

describe("the lines that mount a model", () => {
  it("serve a user's model as JSON for a bearer token and as pages for the session", () => {
    expect(note.routes).toEqual([
      "...jsonRecordRoutes({",
      "  model: noteModel,",
      "  store: new SqlRecordStore(options.database, noteModel),",
      "  authenticate: bearerAuthentication(accounts.bearer),",
      "}),",
      "...htmlRecordRoutes({",
      "  model: noteModel,",
      "  store: new SqlRecordStore(options.database, noteModel),",
      "  layout: plainLayout,",
      "  sessions: accounts.sessions,",
      "  authenticate: sessionAuthentication((id) => accounts.users.findById(id)),",
      "}),",
    ]);
    expect(note.imports.map(({ source }) => source)).toEqual([
      "@tessera/bearer",
      "@tessera/http",
      "@tessera/records",
      "@tessera/records/html",
      "@tessera/records/sql",
      "@tessera/session",
      "./models/note.js",
    ]);
  });

  it("scope an organization's JSON and pages alike, give files a storage, and leave out JSON for --html-only", () => {
    const project = modelMount({
      name: "project",
      owner: "organization",
      htmlOnly: true,
      attachments: true,
    });
    expect(project.routes.join("\n")).not.toContain("jsonRecordRoutes");
    expect(project.routes).toContain(
      "  scope: organizationRecords({ organizations: new SqlOrganizationStore(options.database) }),",
    );
    expect(project.routes).toContain('  storage: new FilesystemObjectStorage("data/uploads"),');
    expect(project.imports).toContainEqual({
      name: "organizationRecords",
      source: "@tessera/organizations/routes",
    });
    expect(project.imports).not.toContainEqual({
      name: "bearerAuthentication",
      source: "@tessera/bearer",
    });
  });
});

describe("--mount into src/app.ts", () => {
  it("adds the imports in order and the routes above the marker, once", () => {
    const mounted = mountInto(HONO_APP, "note", note);
    expect(mounted).toMatchObject({ ok: true, changed: true });
    if (!mounted.ok) return;
    expect(mounted.text.split("\n").slice(0, 11)).toEqual([
      'import { getConnInfo } from "@hono/node-server/conninfo";',
      'import { bearerAuthentication } from "@tessera/bearer";',
      'import { clientAddress, mount, securityHeaders, type TesseraEnv } from "@tessera/hono";',
      'import { plainLayout } from "@tessera/http";',
      'import { jsonRecordRoutes } from "@tessera/records";',
      'import { htmlRecordRoutes } from "@tessera/records/html";',
      'import { SqlRecordStore } from "@tessera/records/sql";',
      'import { sessionAuthentication } from "@tessera/session";',
      'import { cookieSession, type SessionEnv } from "@tessera/session/hono";',
      'import { Hono } from "hono";',
      'import { type AppOptions, appAccounts } from "./accounts.js";',
    ]);
    expect(mounted.text).toContain(
      `    ...accounts.routes,\n    ...jsonRecordRoutes({\n      model: noteModel,`,
    );
    expect(mounted.text).toContain(
      `      authenticate: sessionAuthentication((id) => accounts.users.findById(id)),\n    }),\n    ${ROUTES_MARKER}\n  ];`,
    );
    expect(mountInto(mounted.text, "note", note)).toEqual({
      ok: true,
      text: mounted.text,
      changed: false,
    });
  });

  it("refuses a file that is not as tessera new wrote it", () => {
    const unmarked = HONO_APP.replace(ROUTES_MARKER, "// mine");
    expect(mountInto(unmarked, "note", note)).toMatchObject({
      ok: false,
      reason: "`src/app.ts` is not as `tessera new` wrote it: its routes list has no marked end",
    });
    const twice = HONO_APP.replace(ROUTES_MARKER, `${ROUTES_MARKER}\n    ${ROUTES_MARKER}`);
    expect(mountInto(twice, "note", note)).toMatchObject({ ok: false });
    const commentFirst = `// my app\n${HONO_APP}`;
    expect(mountInto(commentFirst, "note", note)).toMatchObject({
      ok: false,
      reason: "`src/app.ts` is not as `tessera new` wrote it: it does not start with its imports",
    });
  });
});

describe("imports in Biome's order", () => {
  it("join a statement of the same source, or stand where their source sorts", () => {
    const text =
      'import { b } from "node:fs";\nimport { Z, y } from "@tessera/records";\nimport x from "./x.js";\n\nrun();\n';
    expect(
      withImports(text, [
        { name: "jsonRecordRoutes", source: "@tessera/records" },
        { name: "a", source: "./a.js" },
        { name: "h", source: "@tessera/http" },
        { name: "y", source: "@tessera/records" },
      ]),
    ).toBe(
      'import { b } from "node:fs";\nimport { h } from "@tessera/http";\nimport { jsonRecordRoutes, y, Z } from "@tessera/records";\nimport { a } from "./a.js";\nimport x from "./x.js";\n\nrun();\n',
    );
  });

  it("sort names and sources as Biome does", () => {
    const names = ["za", "z10", "Zed", "appAccounts", "z_a", "aB", "AppOptions", "z2", "ab"];
    expect(names.sort(compareNames)).toEqual([
      "AppOptions",
      "aB",
      "ab",
      "appAccounts",
      "Zed",
      "z_a",
      "z2",
      "z10",
      "za",
    ]);
    const sources = [
      "./models/blogs.js",
      "hono",
      "./models/blog_entry.js",
      "@tessera/records/sql",
      "../up.js",
      "./models/blog.js",
      "@tessera/records",
      "node:fs",
      "./models/blog2.js",
    ];
    expect(sources.sort(compareSources)).toEqual([
      "node:fs",
      "@tessera/records",
      "@tessera/records/sql",
      "hono",
      "../up.js",
      "./models/blog.js",
      "./models/blog_entry.js",
      "./models/blog2.js",
      "./models/blogs.js",
    ]);
  });
});
