import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Cli = typeof import("@tessera/cli");

export default {
  does: "parse tessera command lines, refuse bad ones with a usage error and hint",
  imports: () => ["@tessera/cli"],
  async run({ load, check }) {
    const { parseArguments, USAGE } = await load<Cli>("@tessera/cli");
    const generate = parseArguments([
      "generate",
      "model",
      "post",
      "title:string",
      "--table=articles",
      "status:enum:draft,published",
      "--unique-scope",
      "owner",
      "--json",
    ]);
    check(generate.ok, "a generate model command line parses");
    if (generate.ok) {
      const { command, model, declarations, table, uniqueScope, json, owner, graphql } =
        generate.value;
      check(
        command === "generate model" &&
          model === "post" &&
          declarations.join(" ") === "title:string status:enum:draft,published" &&
          table === "articles" &&
          uniqueScope === "owner" &&
          json &&
          owner &&
          !graphql,
        "command, model, declarations and flags are read wherever they stand",
      );
    }
    const help = parseArguments([]);
    check(help.ok && help.value.command === "help", "no arguments asks for help");
    check(
      USAGE.startsWith("Usage:\n  tessera check <name:type>..."),
      "the usage text names the commands",
    );

    const unknown = parseArguments(["check", "title:string", "--verbose"]);
    check(
      !unknown.ok &&
        unknown.reason === "unknown option `--verbose`" &&
        unknown.hint === "run `tessera --help` for the options",
      "an unknown option is a usage error with a hint",
    );
    const empty = parseArguments(["check", "--json"]);
    check(
      !empty.ok &&
        empty.json &&
        empty.reason === "no field declarations given" &&
        empty.hint === "list them as name:type, e.g. `tessera check title:string`",
      "check without declarations is refused, remembering --json",
    );
    const conflict = parseArguments([
      "generate",
      "model",
      "post",
      "title:string",
      "--no-owner",
      "--unique-scope=owner",
    ]);
    check(
      !conflict.ok && conflict.reason === "--unique-scope owner needs the owner column",
      "conflicting options are refused",
    );
  },
} satisfies RuntimeSmoke;
