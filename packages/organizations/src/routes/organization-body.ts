import { type Locale, unstorableText } from "@tessera/core";
import { jsonError, readJsonBody } from "@tessera/http";
import { organizationMessages } from "./organization-messages.js";

/** The largest body an organization route reads: a few short text fields fit many times over. */
export const MAXIMUM_ORGANIZATION_BODY_BYTES = 16 * 1024;

/** A body read: its text fields (absent ones undefined), or the 400 refusing it. */
export type TextBody<Field extends string> =
  | { readonly ok: true; readonly values: Partial<Record<Field, string>> }
  | { readonly ok: false; readonly response: Response };

/**
 * Reads a JSON object body whose fields are all text, each one of `fields` and none required
 * here (a missing one is a 422 its route decides). A wrong shape is a 400: not JSON or over
 * {@link MAXIMUM_ORGANIZATION_BODY_BYTES}, another field, a value that is not a string, or
 * text no database stores alike (a NUL, a lone surrogate).
 */
export async function readTextBody<const Field extends string>(
  request: Request,
  fields: readonly Field[],
  locale: Locale | undefined,
): Promise<TextBody<Field>> {
  const body = await readJsonBody(request, { maximumBytes: MAXIMUM_ORGANIZATION_BODY_BYTES });
  if (!body.ok) return body;
  const text = organizationMessages.text.bind(organizationMessages, locale);
  // Written in the request's language, with its language headers, as every other refusal.
  const refuse = (message: string) => ({
    ok: false as const,
    response: jsonError(400, message, { locale }),
  });
  const known: readonly string[] = fields;
  const values: Partial<Record<string, string>> = {};
  for (const [field, value] of Object.entries(body.value)) {
    if (!known.includes(field)) {
      return refuse(text("organizations.unknown_field", { field }));
    }
    if (typeof value !== "string") {
      return refuse(text("organizations.not_a_string", { field }));
    }
    const unstorable = unstorableText(value);
    if (unstorable !== undefined) {
      const id =
        unstorable === "NUL character in string"
          ? "organizations.nul_character"
          : "organizations.lone_surrogate";
      return refuse(text(id, { field }));
    }
    values[field] = value;
  }
  return { ok: true, values: values as Partial<Record<Field, string>> };
}
