/** The shape of a slug: lower-case letters, digits and inner hyphens, 3 to 40 characters. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;

/**
 * Words a slug may not be: they name routes beside an organization's (`/orgs/new`) or would
 * pass for the service itself.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  "new",
  "edit",
  "api",
  "admin",
  "administrator",
  "settings",
  "account",
  "accounts",
  "login",
  "logout",
  "signup",
  "invitations",
  "members",
  "keys",
  "webhooks",
  "orgs",
  "organizations",
  "help",
  "support",
  "root",
  "system",
  "www",
]);

/** On `slug`: too short or too long. */
export const SLUG_LENGTH = "must be 3 to 40 characters";
/** On `slug`: a character outside `[a-z0-9-]`, or a hyphen at an end or doubled. */
export const SLUG_SHAPE = "may hold only lower-case letters, digits and single hyphens inside";
/** On `slug`: one of {@link RESERVED_SLUGS}. */
export const SLUG_RESERVED = "is reserved";

/** Why a slug is refused, as a 422's message on `slug`; undefined when it may be used. */
export function slugProblem(slug: string): string | undefined {
  if (slug.length < 3 || slug.length > 40) return SLUG_LENGTH;
  if (!SLUG.test(slug) || slug.includes("--")) return SLUG_SHAPE;
  if (RESERVED_SLUGS.has(slug)) return SLUG_RESERVED;
  return undefined;
}

/**
 * A slug made from an organization's name: accents dropped, lower case, every run of other
 * characters one hyphen, cut to 40; `org-` before it when it would be too short or reserved.
 */
export function slugFromName(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return slugProblem(words) === undefined ? words : `org-${words}`.slice(0, 40).replace(/-+$/, "");
}
