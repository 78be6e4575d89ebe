import { describe, expect, it } from "vitest";
import { releaseCommand } from "../release-args.js";

describe("releaseCommand", () => {
  it("reads a release: the registry, the token (or NPM_TOKEN) and --skip-build", () => {
    expect(
      releaseCommand(["--registry", "https://registry.npmjs.org/", "--skip-build"], {
        NPM_TOKEN: "from-env",
      }),
    ).toEqual({
      kind: "release",
      registry: "https://registry.npmjs.org/",
      token: "from-env",
      build: false,
    });
    expect(releaseCommand(["--registry", "http://r/", "--token", "given"], {})).toMatchObject({
      token: "given",
      build: true,
    });
  });

  it("refuses a release without a registry, pointing at the dry run", () => {
    const command = releaseCommand([], {});
    expect(command.kind).toBe("refused");
    expect(command.kind === "refused" && command.message).toMatch(/--registry[\s\S]*--dry-run/);
  });

  it("reads a dry run, which leaves NPM_TOKEN unread", () => {
    expect(releaseCommand(["--dry-run"], { NPM_TOKEN: "secret" })).toEqual({
      kind: "dry-run",
      build: true,
    });
    expect(releaseCommand(["--dry-run", "--skip-build"], {})).toEqual({
      kind: "dry-run",
      build: false,
    });
  });

  it("refuses --registry and --token with --dry-run, which publishes to a registry of its own", () => {
    const command = releaseCommand(["--dry-run", "--registry", "http://r/", "--token", "t"], {});
    expect(command.kind).toBe("refused");
    expect(command.kind === "refused" && command.message).toMatch(
      /registry of its own; it takes no --registry or --token/,
    );
  });

  it("refuses an option it does not know", () => {
    const command = releaseCommand(["--dryrun"], {});
    expect(command.kind).toBe("refused");
    expect(command.kind === "refused" && command.message).toMatch(/--dryrun[\s\S]*Usage/);
  });
});
