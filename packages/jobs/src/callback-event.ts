import { fail, ok, type Result } from "@tessera/core";
import { unstorableJson } from "@tessera/fields";
import { JSON_BODY_FAILURE_PREFIX } from "@tessera/http";
import type { JobEvent } from "./state-machine.js";
import { reportedStatus } from "./status-words.js";

/** A callback's event. */
export type ReportedEvent = Extract<JobEvent, { type: "reported" }>;

/** Error texts from a service are kept up to this many characters. */
export const MAX_ERROR_LENGTH = 1000;
const MAX_WORD_IN_MESSAGE = 100;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a callback body: `status` (a status word), optional `progress` (integer 0 to 100),
 * `output` or `result` (any JSON, kept as JSON text, nested no deeper than json fields may)
 * and `error`. The failure is the full message of the 400: `unknown status <word>`, or the
 * deserialize prefix and a reason.
 * Never throws.
 */
export function readCallbackEvent(body: Uint8Array): Result<ReportedEvent, string> {
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(body));
  } catch {
    return refuse("the body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return refuse("invalid type: expected a JSON object");
  }
  const fields = value as Record<string, unknown>;
  const word = fields.status;
  if (word === undefined) return refuse("missing field `status`");
  if (typeof word !== "string") return refuse("status: invalid type: expected a string");
  const status = reportedStatus(word);
  if (!status) return fail(`unknown status ${word.slice(0, MAX_WORD_IN_MESSAGE)}`);
  const progress = fields.progress ?? undefined;
  if (
    progress !== undefined &&
    !(
      typeof progress === "number" &&
      Number.isInteger(progress) &&
      progress >= 0 &&
      progress <= 100
    )
  ) {
    return refuse("progress: invalid value: expected an integer from 0 to 100");
  }
  const outputKey = "output" in fields ? "output" : "result";
  const output = fields[outputKey];
  // Both are stringified below, where a value nested too deep would overflow the stack and an
  // infinite number would become null: refused as json fields refuse them.
  const outputProblem = unstorableJson(output);
  if (outputProblem) return refuse(`${outputKey}: ${outputProblem}`);
  const errorProblem = unstorableJson(fields.error);
  if (errorProblem) return refuse(`error: ${errorProblem}`);
  return ok({
    type: "reported",
    status,
    word,
    progress: progress === undefined ? undefined : progress + 0, // -0 is 0
    result: output === undefined || output === null ? undefined : JSON.stringify(output),
    error: errorText(fields.error),
  });
}

function errorText(error: unknown): string | undefined {
  if (error === undefined || error === null || error === "") return undefined;
  // Services send `{ "message": ... }` objects as often as strings: keep them readable.
  const text = typeof error === "string" ? error : JSON.stringify(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

function refuse(reason: string): Result<never, string> {
  return fail(`${JSON_BODY_FAILURE_PREFIX}${reason}`);
}
