import { describe, expect, it } from "vitest";
import { checkEndpointInput, eventFilterTakes, isEventFilterEntry } from "../src/index.js";

describe("isEventFilterEntry", () => {
  it("takes a type name or a name's prefix ending in .*", () => {
    for (const entry of ["note.created", "note.*", "note.comment.*", "a-b_c.*", "x".repeat(100)]) {
      expect(isEventFilterEntry(entry), entry).toBe(true);
    }
  });

  it("refuses a bare or inner wildcard, other shapes and what is not text", () => {
    for (const entry of ["*", ".*", "*.created", "note.*.added", "note*", "note.**", "no te.*"]) {
      expect(isEventFilterEntry(entry), entry).toBe(false);
    }
    expect(isEventFilterEntry(`${"x".repeat(99)}.*`)).toBe(false);
    expect(isEventFilterEntry(5)).toBe(false);
    expect(isEventFilterEntry(null)).toBe(false);
  });
});

describe("eventFilterTakes", () => {
  it("takes every type with an empty filter", () => {
    expect(eventFilterTakes([], "note.created")).toBe(true);
  });

  it("takes a listed type, and every type under a wildcard's prefix, nothing else", () => {
    const filter = ["user.created", "note.*"];
    expect(eventFilterTakes(filter, "user.created")).toBe(true);
    expect(eventFilterTakes(filter, "note.created")).toBe(true);
    expect(eventFilterTakes(filter, "note.comment.added")).toBe(true);
    expect(eventFilterTakes(filter, "note")).toBe(false);
    expect(eventFilterTakes(filter, "notebook.created")).toBe(false);
    expect(eventFilterTakes(filter, "user.deleted")).toBe(false);
  });
});

describe("an endpoint's events", () => {
  const policy = { allowHosts: ["127.0.0.1"], requireHttps: false };
  const resolveHost = async () => ["127.0.0.1"];

  it("may hold wildcards, and refuses a malformed one with the field's message", async () => {
    const accepted = await checkEndpointInput(
      { url: "http://127.0.0.1/hook", events: ["note.*", "user.created", "note.*"] },
      true,
      policy,
      resolveHost,
    );
    expect(accepted).toMatchObject({ ok: true, value: { eventTypes: ["note.*", "user.created"] } });
    const refused = await checkEndpointInput(
      { url: "http://127.0.0.1/hook", events: ["*.created"] },
      true,
      policy,
      resolveHost,
    );
    expect(refused).toMatchObject({ ok: false, fields: { events: ["is invalid"] } });
  });
});
