import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Cli = typeof import("@tessera/cli");

// The command line is read by node:util's parseArgs on `@tessera/cli/node`; what loads on any
// runtime is the main entry, the usage text made from the command table.
export default {
  does: "give the tessera usage text, made from its command table",
  imports: () => ["@tessera/cli"],
  async run({ load, check }) {
    const { USAGE } = await load<Cli>("@tessera/cli");
    check(
      USAGE.startsWith("Usage:\n  tessera check <name:type>..."),
      "the usage text starts with the first command",
    );
    for (const command of [
      "check",
      "generate model",
      "generate accounts",
      "generate migration",
      "generate webhook",
      "generate job",
      "migrate",
      "keys rotate",
    ]) {
      check(USAGE.includes(`\n  tessera ${command} `), `the usage text has \`${command}\``);
    }
    check(USAGE.includes("--no-owner"), "the usage text names the options");
  },
} satisfies RuntimeSmoke;
