// The links an organization's page shows to its record pages: only those of models the
// member's role may read, under the organization's path, in the page's language.
import { describe, expect, it } from "vitest";
import { defineRoles } from "../src/index.js";
import { readableRecordLinks } from "../src/routes.js";

const links = [
  {
    table: "projects",
    label: (locale?: { tag: string }) => (locale?.tag === "fr" ? "Projets" : "Projects"),
  },
  { table: "invoices", label: () => "Invoices" },
];

describe("readableRecordLinks", () => {
  it("shows a role the models it may read, under the organization, in the page's language", () => {
    const roles = defineRoles({ accountant: ["invoices:read"], guest: [] });
    const at = { path: "/orgs/acme", locale: undefined };
    expect(readableRecordLinks(links, roles, "viewer", at)).toEqual([
      { href: "/orgs/acme/projects", text: "Projects" },
      { href: "/orgs/acme/invoices", text: "Invoices" },
    ]);
    expect(readableRecordLinks(links, roles, "accountant", at)).toEqual([
      { href: "/orgs/acme/invoices", text: "Invoices" },
    ]);
    expect(readableRecordLinks(links, roles, "guest", at)).toEqual([]);
    const french = readableRecordLinks(links, roles, "owner", {
      path: "/orgs/acme",
      locale: { tag: "fr", catalog: {} },
    });
    expect(french[0]).toEqual({ href: "/orgs/acme/projects", text: "Projets" });
  });
});
