import { describe, expect, it } from "vitest";
import { fail, ok, type Result } from "../src/index.js";

describe("Result", () => {
  it("ok carries the value and fail the reason, told apart by `ok`", () => {
    const outcomes: Result<number, "too-big">[] = [ok(3), fail("too-big")];
    expect(outcomes).toEqual([
      { ok: true, value: 3 },
      { ok: false, reason: "too-big" },
    ]);
    const described = outcomes.map((outcome) =>
      outcome.ok ? `value ${outcome.value}` : `reason ${outcome.reason}`,
    );
    expect(described).toEqual(["value 3", "reason too-big"]);
  });
});
