import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Sanitizer = typeof import("@tessera/sanitizer");

export default {
  does: "sanitize rich text whole and a slice at a time, to the same safe HTML",
  imports: () => ["@tessera/sanitizer"],
  async run({ load, check }) {
    const { sanitizeRichText, sanitizeRichTextAsync } = await load<Sanitizer>("@tessera/sanitizer");
    const hostile =
      '<p onclick="x()">Hi <a href="javascript:alert(1)">x</a><script>alert(1)</script><img src=x onerror=alert(1)></p>';
    const safe = '<p>Hi <a>x</a><img src="x" /></p>';
    check(sanitizeRichText(hostile) === safe, "script, handlers and javascript: URLs are removed");
    check(sanitizeRichText(safe) === safe, "sanitizing sanitized HTML changes nothing");
    const long = hostile.repeat(1_000);
    check(
      (await sanitizeRichTextAsync(long)) === safe.repeat(1_000),
      "the sliced sanitizer gives what the whole one gives",
    );
  },
} satisfies RuntimeSmoke;
