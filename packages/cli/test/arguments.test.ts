import { describe, expect, it } from "vitest";
import { parseArguments } from "../src/node.js";

describe("parseArguments", () => {
  it("reads commands with flags anywhere", () => {
    expect(
      parseArguments([
        "generate",
        "--json",
        "model",
        "post",
        "title:string",
        "--cwd=app",
        "--table",
        "articles",
        "--no-owner",
      ]),
    ).toEqual({
      ok: true,
      value: {
        command: "generate model",
        model: "post",
        declarations: ["title:string"],
        json: true,
        cwd: "app",
        table: "articles",
        owner: false,
        graphql: false,
        htmlOnly: false,
        existingTable: false,
        status: false,
        pretend: false,
        install: false,
        mount: false,
        uniqueScope: "table",
      },
    });
    expect(
      parseArguments(["generate", "model", "tag", "name:string^", "--unique-scope", "owner"]),
    ).toMatchObject({ ok: true, value: { command: "generate model", uniqueScope: "owner" } });
    expect(
      parseArguments(["check", "a:string", "--graphql", "--html-only", "--existing-table"]),
    ).toMatchObject({
      ok: true,
      value: {
        command: "check",
        declarations: ["a:string"],
        graphql: true,
        htmlOnly: true,
        existingTable: true,
        owner: "user",
      },
    });
    expect(parseArguments([])).toMatchObject({ ok: true, value: { command: "help" } });
    expect(parseArguments(["generate", "accounts"])).toMatchObject({
      ok: true,
      value: { command: "generate accounts" },
    });
  });

  it.each([
    [["check"], "no field declarations given"],
    [["generate", "model"], "no model name given"],
    [["generate", "model", "post"], "no field declarations given"],
    [["generate", "accounts", "x:string"], "unexpected `x:string`"],
    [["generate", "thing"], "unknown command `generate thing`"],
    [["deploy"], "unknown command `deploy`"],
    [["check", "a:string", "--force"], "unknown option `--force`"],
    [["check", "a:string", "--json=yes"], "unknown option `--json=yes`"],
    [["check", "a:string", "--cwd"], "--cwd needs a value"],
    [
      ["check", "a:string", "--table", "t"],
      "--table, --owner and --no-owner apply to `tessera generate model` only",
    ],
    [
      ["generate", "model", "post", "a:string", "--existing-table"],
      "--existing-table applies to `tessera check` only",
    ],
    [
      ["generate", "model", "tag", "a:string^", "--unique-scope", "everyone"],
      "unknown unique scope `everyone`",
    ],
    [
      ["generate", "model", "tag", "a:string^", "--unique-scope=owner", "--no-owner"],
      "--unique-scope owner needs the owner column",
    ],
    [
      ["check", "a:string^", "--unique-scope", "owner"],
      "--unique-scope applies to `tessera generate model` only",
    ],
  ])("refuses %j: %s", (argv, reason) => {
    const result = parseArguments(argv);
    expect(result).toMatchObject({ ok: false, reason });
    expect(!result.ok && result.hint.length).toBeGreaterThan(5);
  });

  it("remembers --json for usage errors", () => {
    expect(parseArguments(["deploy", "--json"])).toMatchObject({ ok: false, json: true });
    expect(parseArguments(["deploy"])).toMatchObject({ ok: false, json: false });
  });
});
