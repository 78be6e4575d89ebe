import { fail, ok, type Result } from "@tessera/core";

/*
 * The Standard Schema v1 interface, the shape `@standard-schema/spec`
 * publishes, declared here with only the members a webhook reads: verifying webhooks installs
 * no package for a few type declarations. zod (3.24+, 4), valibot (1), ArkType and the models
 * of `@tessera/fields` implement it, so any of them fits `PayloadSchema` structurally.
 */

/** One problem a schema found: its message and, when it has one, where in the payload. */
export interface PayloadSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What a Standard Schema's `validate` gives: the typed value, or the issues. */
export type PayloadSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<PayloadSchemaIssue> };

/**
 * A Standard Schema v1 (`~standard`, version 1) whose output is `Output`: a zod, valibot or
 * ArkType schema, or a `@tessera/fields` model's `create`. `validate` may be async.
 */
export interface PayloadSchema<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => PayloadSchemaResult<Output> | Promise<PayloadSchemaResult<Output>>;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** At most this many issues are named in a 400: enough to fix a sender, bounded for logs. */
const NAMED_ISSUES = 5;

/**
 * Validates a parsed payload with its schema: the schema's output, or the reason of the 400,
 * naming each issue's path as a field (``invalid value for field `data.amount`: …``). A schema
 * that throws is a programmer error and is not caught.
 */
export async function validatePayload<Output>(
  schema: PayloadSchema<Output>,
  value: unknown,
): Promise<Result<Output, string>> {
  const result = await schema["~standard"].validate(value);
  if (result.issues === undefined) return ok(result.value);
  if (result.issues.length === 0) return fail("the payload does not match its schema");
  const named = result.issues.slice(0, NAMED_ISSUES).map(describeIssue);
  const more = result.issues.length - named.length;
  return fail(more > 0 ? `${named.join("; ")} (and ${more} more)` : named.join("; "));
}

function describeIssue(issue: PayloadSchemaIssue): string {
  const path = (issue.path ?? [])
    .map((segment) => String(typeof segment === "object" ? segment.key : segment))
    .join(".");
  // A message that names its field already (`missing field \`amount\``) is not prefixed.
  if (path === "" || issue.message.includes(`\`${path}\``)) return issue.message;
  return `invalid value for field \`${path}\`: ${issue.message}`;
}
