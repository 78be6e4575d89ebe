import { describe, expect, it } from "vitest";
import { reportedStatus } from "../src/index.js";

describe("reportedStatus (the documented status words)", () => {
  it.each([
    ["in_queue", "submitted"],
    ["queued", "submitted"],
    ["starting", "submitted"],
    ["running", "running"],
    ["started", "running"],
    ["processing", "running"],
    ["in_progress", "running"],
    ["done", "done"],
    ["completed", "done"],
    ["succeeded", "done"],
    ["success", "done"],
    ["failed", "failed"],
    ["error", "failed"],
    ["cancelled", "failed"],
    ["canceled", "failed"],
    ["timed_out", "failed"],
  ])("maps %s to %s in any letter case", (word, status) => {
    expect(reportedStatus(word)).toBe(status);
    expect(reportedStatus(word.toUpperCase())).toBe(status);
    expect(reportedStatus(word[0]!.toUpperCase() + word.slice(1))).toBe(status);
  });

  it("maps the provider-style words", () => {
    expect(
      ["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"].map(
        reportedStatus,
      ),
    ).toEqual(["submitted", "running", "done", "failed", "failed", "failed"]);
  });

  it("knows no other word", () => {
    for (const word of [
      "",
      "paused",
      " done",
      "done ",
      "in-progress",
      "constructor",
      "__proto__",
    ]) {
      expect(reportedStatus(word)).toBeUndefined();
    }
    // Lookalikes stay unknown: only ASCII letters are folded.
    expect(reportedStatus("ſuccess")).toBeUndefined(); // long s, which upper-cases to S
    expect(reportedStatus("ＤＯＮＥ")).toBeUndefined(); // fullwidth letters
  });
});
