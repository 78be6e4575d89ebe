import { describe, expect, it } from "vitest";
import { browserName, UNKNOWN_BROWSER } from "../src/tracked-session-browser.js";
import vectors from "./vectors/user-agents.json" with { type: "json" };

describe("browserName", () => {
  it.each(vectors.cases)("names $label", ({ ua, label }) => {
    expect(browserName(ua)).toBe(label);
  });

  it("gives the unknown label for a missing header", () => {
    expect(browserName(null)).toBe(UNKNOWN_BROWSER);
    expect(browserName(undefined)).toBe(UNKNOWN_BROWSER);
  });

  it("reads only the first 512 characters of a header", () => {
    const padding = "x".repeat(512);
    expect(browserName(`${padding} Firefox/128.0 (X11; Linux)`)).toBe(UNKNOWN_BROWSER);
    expect(browserName(`Firefox/128.0 ${padding}`)).toBe("Firefox 128");
  });

  it("gives the major version without leading zeros", () => {
    expect(browserName("Mozilla/5.0 (Windows NT 10.0) Firefox/0128.0")).toBe(
      "Firefox 128 on Windows",
    );
  });
});

describe("browserName in a locale", () => {
  const pirate = {
    tag: "x-pirate",
    catalog: {
      "session.unknown_browser": "A ship of no flag",
      "session.browser_on_system": "{browser} aboard {system}",
    },
  };

  it("writes its own words in the locale and keeps the names", () => {
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    expect(browserName(firefox, pirate)).toBe("Firefox 128 aboard Linux");
    expect(browserName("Mozilla/5.0 (Windows NT 10.0)", pirate)).toBe(
      "A ship of no flag aboard Windows",
    );
    expect(browserName(null, pirate)).toBe("A ship of no flag");
    expect(browserName(firefox)).toBe("Firefox 128 on Linux");
  });
});
