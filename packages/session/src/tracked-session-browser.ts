// Hand-written on purpose: the label on a list of devices needs a dozen rules, while the UA
// parsing libraries ship tens of kilobytes of patterns for devices, engines and bots, and must
// be kept current. A browser this table does not know still gets a useful label (its system,
// or "Unknown browser"), and the raw `User-Agent` stays in the row for anyone who needs more.

import type { Locale } from "@tessera/core";
import { sessionMessages } from "./session-messages.js";

/** The label of a `User-Agent` this parser cannot name, in English. */
export const UNKNOWN_BROWSER = sessionMessages.english["session.unknown_browser"];

/** Only the start of a header is read, so a hostile one costs no more than a long real one. */
const READ_LENGTH = 512;

/**
 * Browsers, most specific first: Chromium-based browsers also send `Chrome/`, Chrome also sends
 * `Safari/`, and the iOS browsers send Safari's tokens around their own. The group captures the
 * major version.
 */
const BROWSERS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ["Edge", /\bEdg(?:e|A|iOS)?\/(\d{1,4})/],
  ["Opera", /\b(?:OPR|OPT|OPiOS)\/(\d{1,4})/],
  ["Samsung Internet", /\bSamsungBrowser\/(\d{1,4})/],
  ["Vivaldi", /\bVivaldi\/(\d{1,4})/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/(\d{1,4})/],
  ["Headless Chrome", /\bHeadlessChrome\/(\d{1,4})/],
  ["Chrome", /\b(?:Chrome|CriOS)\/(\d{1,4})/],
  // Safari names its version in `Version/`; the `Safari/` number is WebKit's build.
  ["Safari", /\bVersion\/(\d{1,4})[^ ]* (?:Mobile\/[^ ]+ )?Safari\//],
  // Tools sign in rarely, but a session opened by a script should say so.
  ["curl", /^curl\//],
  ["Wget", /^Wget\//],
  ["HTTPie", /^HTTPie\//],
  ["Python Requests", /^python-requests\//],
];

/** Systems, most specific first: Android and ChromeOS also say `Linux`, iOS says `Mac OS X`. */
const SYSTEMS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ["iPhone", /\biPhone\b/],
  ["iPad", /\biPad\b/],
  ["Android", /\bAndroid\b/],
  ["Windows", /\bWindows\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["macOS", /\bMacintosh\b|\bMac OS X\b/],
  ["Linux", /\bLinux\b|\bX11\b/],
];

function firstMatch(
  table: readonly (readonly [name: string, pattern: RegExp])[],
  text: string,
): { readonly name: string; readonly version: string | undefined } | undefined {
  for (const [name, pattern] of table) {
    const match = pattern.exec(text);
    if (match) return { name, version: match[1] };
  }
  return undefined;
}

/**
 * A readable name for a `User-Agent` header, for the list of signed-in devices:
 * `Firefox 128 on Linux`, `Chrome 120 on Windows`, `Safari 17 on iPhone`, `curl`;
 * `Unknown browser on Linux` or `Unknown browser` when the browser is not one it knows; its
 * words in `locale` (English when absent; rows store the English label). Never throws; reads at
 * most the first 512 characters.
 */
export function browserName(userAgent: string | null | undefined, locale?: Locale): string {
  const text = (userAgent ?? "").slice(0, READ_LENGTH);
  const browser = firstMatch(BROWSERS, text);
  const system = firstMatch(SYSTEMS, text);
  const label = browser
    ? browser.version === undefined
      ? browser.name
      : `${browser.name} ${Number(browser.version)}`
    : sessionMessages.text(locale, "session.unknown_browser");
  return system
    ? sessionMessages.text(locale, "session.browser_on_system", {
        browser: label,
        system: system.name,
      })
    : label;
}
