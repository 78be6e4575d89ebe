import type { Finding } from "./findings.js";
import type { Footprint } from "./footprint.js";

/** What installing one package alone may bring, beyond "only what it declares". */
interface InstallRule {
  /** The only packages the install may hold, when it is that strict. */
  readonly onlyPackages?: readonly string[];
  /** The only Tessera packages the install may hold. */
  readonly onlyTesseraPackages?: readonly string[];
  /** Packages the install must not hold at all. */
  readonly forbidden?: readonly string[];
}

/**
 * The layout's promises to a user who installs one package: core comes alone, verifying webhooks
 * brings only core, crypto and http (`@tessera/sql`, which only its `/sql` store needs, is an
 * optional peer), and bearer tokens do not bring an HTML sanitizer (neither
 * sanitize-html nor htmlparser2, on which @tessera/fields' rich_text sanitizer is built).
 */
export const INSTALL_RULES: Readonly<Record<string, InstallRule>> = {
  "@tessera/core": { onlyPackages: ["@tessera/core"] },
  "@tessera/webhooks": {
    onlyTesseraPackages: ["@tessera/core", "@tessera/crypto", "@tessera/http", "@tessera/webhooks"],
  },
  "@tessera/bearer": { forbidden: ["sanitize-html", "htmlparser2"] },
};

/** Findings for an install that breaks its package's rule. */
export function installContentFindings(packageName: string, footprint: Footprint): Finding[] {
  const rule = INSTALL_RULES[packageName] ?? {};
  const unexpected = footprint.packages.filter(
    (name) =>
      (rule.onlyPackages && !rule.onlyPackages.includes(name)) ||
      (rule.onlyTesseraPackages &&
        name.startsWith("@tessera/") &&
        !rule.onlyTesseraPackages.includes(name)) ||
      rule.forbidden?.includes(name),
  );
  return unexpected.map((name) => ({
    packageName,
    check: "install-contents",
    detail: `installing it alone brings ${name}`,
  }));
}
