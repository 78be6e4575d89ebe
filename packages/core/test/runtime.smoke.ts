import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Core = typeof import("@tessera/core");

export default {
  does: "build the error envelope and results, round-trip a UTC timestamp, escape HTML, find NUL and lone surrogates",
  imports: () => ["@tessera/core"],
  async run({ load, check }) {
    const {
      BLANK,
      errorEnvelope,
      escapeHtml,
      fail,
      formatTimestamp,
      ok,
      parseTimestamp,
      tooLongMessage,
      unstorableText,
    } = await load<Core>("@tessera/core");
    check(
      JSON.stringify(errorEnvelope(422, "Validation failed", { fields: { title: [BLANK] } })) ===
        '{"error":{"code":"validation_failed","message":"Validation failed","status":422,"fields":{"title":["can\'t be blank"]}}}',
      "a 422 envelope carries its fields",
    );
    check(
      !("fields" in errorEnvelope(404, "Not found").error),
      "an envelope without fields leaves the key out",
    );
    const good = ok(42);
    const bad = fail("too-young");
    check(good.ok && good.value === 42, "ok wraps a value");
    check(!bad.ok && bad.reason === "too-young", "fail wraps a reason");
    check(
      tooLongMessage(100) === "is too long (maximum is 100 characters)",
      "the length message names maximum and unit",
    );
    const text = formatTimestamp(Date.UTC(2024, 1, 29, 23, 59, 7, 450));
    check(text === "2024-02-29 23:59:07", "a timestamp formats as UTC YYYY-MM-DD HH:MM:SS");
    check(parseTimestamp(text) === Date.UTC(2024, 1, 29, 23, 59, 7), "the text parses back");
    check(Number.isNaN(parseTimestamp("2024-02-29T23:59:07Z")), "other text parses to NaN");
    check(
      escapeHtml(`<a href="x">Tom & Jerry's</a>`) ===
        "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;",
      "escapeHtml escapes & < > \" '",
    );
    check(
      unstorableText("a\u0000") === "NUL character in string" &&
        unstorableText("\ud800") === "lone surrogate in string" &&
        unstorableText("😀") === undefined,
      "unstorableText finds a NUL and a lone surrogate, and passes a surrogate pair",
    );
  },
} satisfies RuntimeSmoke;
