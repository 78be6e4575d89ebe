// The code of docs/guides/typed-fields-form.md, run: each value and message the guide shows.
import { describe, expect, it } from "vitest";
import { decodeForm, defineModel, fullMessage, renderErrorSummary } from "../src/index.js";

const booking = defineModel("booking", [
  "name:string",
  "seats:integer",
  "starts_at:datetime",
  "notes:text?",
  "newsletter:bool",
]);

describe("the typed-fields form guide", () => {
  it("reports every failing field at once, as full sentences in the summary", () => {
    const form = new URLSearchParams({ name: "Ada", seats: "two", starts_at: "" });
    const result = decodeForm(booking.fields, form);
    expect(result.ok).toBe(false);
    if (result.ok || result.status !== 422) return;
    expect(result.fields).toEqual({
      seats: ["is not a number"],
      starts_at: ["is not a valid date and time"],
    });
    const sentences = Object.entries(result.fields).flatMap(([field, messages]) =>
      messages.map((message) => fullMessage(field, message)),
    );
    expect(sentences).toEqual(["Seats is not a number", "Starts at is not a valid date and time"]);
    const summary = renderErrorSummary(result.fields);
    expect(summary).toContain('role="alert"');
    expect(summary).toContain("Seats is not a number");
  });

  it("decodes a valid form: an empty optional is null, an unchecked box is 0", () => {
    const form = new URLSearchParams({
      name: "Ada",
      seats: "2",
      starts_at: "2026-12-01T18:30",
      notes: "  ",
    });
    const result = decodeForm(booking.fields, form);
    expect(result.ok && result.value.values).toEqual({
      name: "Ada",
      seats: 2,
      starts_at: "2026-12-01T18:30",
      notes: null,
      newsletter: 0,
    });
  });
});
