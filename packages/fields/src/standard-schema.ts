import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { DecodedRecord, DecodeResult } from "./decode-result.js";

/** The vendor name Tessera's schemas give in `~standard`. */
export const STANDARD_SCHEMA_VENDOR = "tessera";

type Issue = StandardSchemaV1.Issue;

/**
 * The key a 400 reason names: `` missing field `title` `` and `title: invalid type: ...` name
 * `title`; `invalid type: array, expected a JSON object` names none.
 */
export function reasonKey(reason: string): string | undefined {
  const named = /^missing field `([^`]+)`$/.exec(reason) ?? /^([a-z][a-z0-9_]*): /.exec(reason);
  return named?.[1];
}

/** The Standard Schema issues of a refused body: the 400 reason, or every 422 message. */
export function issuesOf(result: Exclude<DecodeResult, { ok: true }>): readonly Issue[] {
  if (result.status === 400) {
    const key = reasonKey(result.reason);
    return [
      key === undefined ? { message: result.reason } : { message: result.reason, path: [key] },
    ];
  }
  return Object.entries(result.fields).flatMap(([key, messages]) =>
    messages.map((message): Issue => ({ message, path: [key] })),
  );
}

/**
 * A Standard Schema v1 over a JSON body decoder: the value is the decoded columns, with a sent
 * `lock_version` among them; a refusal's issues carry the exact messages, each with its key as
 * the path. Synchronous.
 */
export function jsonBodySchema<Input, Output>(
  decode: (body: unknown) => DecodeResult,
): StandardSchemaV1<Input, Output> {
  return {
    "~standard": {
      version: 1,
      vendor: STANDARD_SCHEMA_VENDOR,
      validate(value: unknown): StandardSchemaV1.Result<Output> {
        const result = decode(value);
        if (!result.ok) return { issues: issuesOf(result) };
        return { value: columnsOf(result.value) as Output };
      },
    },
  };
}

function columnsOf(record: DecodedRecord): Record<string, unknown> {
  const { values, lockVersion } = record;
  return lockVersion === undefined ? { ...values } : { ...values, lock_version: lockVersion };
}
