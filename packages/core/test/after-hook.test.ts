import { afterEach, describe, expect, it, vi } from "vitest";
import { reportHookErrorToStderr, runAfterHook } from "../src/index.js";

afterEach(() => vi.restoreAllMocks());

describe("runAfterHook", () => {
  it("awaits the hook, called as a method of its object, with the event built for it", async () => {
    const seen: unknown[] = [];
    const hooks = {
      prefix: "created",
      async afterCreate(this: { prefix: string }, event: { id: number }) {
        await Promise.resolve();
        seen.push(`${this.prefix} ${event.id}`);
      },
    };
    await runAfterHook(
      hooks,
      "afterCreate",
      hooks.afterCreate,
      () => ({ id: 7 }),
      () => {},
    );
    expect(seen).toEqual(["created 7"]);
  });

  it("builds no event when there is no hook", async () => {
    const build = vi.fn(() => ({ id: 1 }));
    await runAfterHook({}, "afterCreate", undefined, build, () => {});
    expect(build).not.toHaveBeenCalled();
  });

  it("hands a throw to the reporter with the hook's name, and does not pass it on", async () => {
    const reported: [unknown, string][] = [];
    const failure = new Error("mail server down");
    await expect(
      runAfterHook(
        {},
        "onSignUp",
        async () => {
          throw failure;
        },
        () => ({}),
        (error, name) => reported.push([error, name]),
      ),
    ).resolves.toBeUndefined();
    expect(reported).toEqual([[failure, "onSignUp"]]);
  });
});

describe("reportHookErrorToStderr", () => {
  it("names the hook and the error's message on stderr", () => {
    const lines: unknown[] = [];
    vi.spyOn(console, "error").mockImplementation((line) => lines.push(line));
    reportHookErrorToStderr(new Error("boom"), "afterDelete");
    expect(lines).toEqual(["The afterDelete hook failed: boom"]);
  });
});
