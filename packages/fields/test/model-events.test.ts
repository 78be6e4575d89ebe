import { describe, expect, it } from "vitest";
import { defineModel, type ModelEventsOption, RECORD_EVENT_ACTIONS } from "../src/index.js";

describe("defineModel's events", () => {
  it("declares every action with `true`, in created, updated, deleted order", () => {
    expect(defineModel("note", ["title:string"], { events: true }).events).toEqual([
      "created",
      "updated",
      "deleted",
    ]);
    expect(RECORD_EVENT_ACTIONS).toEqual(["created", "updated", "deleted"]);
  });

  it("declares the listed actions only, in the canonical order whatever order they are written in", () => {
    expect(defineModel("note", ["title:string"], { events: ["created"] }).events).toEqual([
      "created",
    ]);
    expect(
      defineModel("note", ["title:string"], { events: ["deleted", "created"] }).events,
    ).toEqual(["created", "deleted"]);
  });

  it("declares none when left out or empty, and such a model still equals the plain object", () => {
    for (const model of [
      defineModel("tag", ["name:string"]),
      defineModel("tag", ["name:string"], { events: [] }),
    ]) {
      expect(model.events).toEqual([]);
      expect(Object.keys(model)).toEqual(["name", "table", "fields"]);
      expect(model).toStrictEqual({ name: "tag", table: "tags", fields: model.fields });
    }
  });

  it("keeps declared events on a spread copy (as graphqlModel makes one), and none on a copy of a model without", () => {
    const note = defineModel("note", ["title:string"], { events: ["updated"] });
    expect({ ...note, graphql: {} }.events).toEqual(["updated"]);
    expect({ ...defineModel("tag", ["name:string"]) }).not.toHaveProperty("events");
  });

  it("throws at definition on an unknown or repeated action, or on a value that is no list", () => {
    const define = (events: unknown) => () =>
      defineModel("note", ["title:string"], { events: events as ModelEventsOption });
    expect(define(["removed"])).toThrow(
      "model note: `removed` in events is not an action (write `created`, `updated` or `deleted`)",
    );
    expect(define(["create"])).toThrow(
      "model note: `create` in events is not an action (did you mean `created`?)",
    );
    expect(define(["created", "created"])).toThrow(
      "model note: `created` is listed twice in events",
    );
    expect(define(false)).toThrow(
      "model note: events is `true` or a list of `created`, `updated`, `deleted`",
    );
    expect(define("created")).toThrow(/events is `true` or a list/);
    expect(define([1])).toThrow("model note: `1` in events is not an action");
  });
});
