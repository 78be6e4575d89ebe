import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database, Transaction } from "better-sqlite3";
import { sendError, sendJson } from "./http-answer.js";
import { readBody } from "./request-body.js";
import { sqlTimestamp } from "./timestamp.js";

const MAX_JSON_BYTES = 4 * 1024 * 1024;
const MAX_TEXT_BYTES = 2_000_000;

const INSERT = `INSERT INTO "notes" ("user_id", "title", "body", "pinned", "due_on", "rating", "word_count", "tags", "post_id", "created_at", "updated_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`;
// The app reads the owner's outbound webhook endpoints in the same transaction, to queue a
// `note.created` event for each subscribed one (the bench's user has none).
const ENDPOINTS = `SELECT id, owner_id, url, event_types, description, secret, previous_secret, previous_secret_until, disabled_at, failing_since, created_at, updated_at FROM webhook_endpoints WHERE owner_id = ? AND disabled_at IS NULL ORDER BY created_at, id`;

interface NoteRow {
  readonly id: number;
  readonly user_id: number;
  readonly title: string;
  readonly body: string | null;
  readonly pinned: number;
  readonly due_on: string | null;
  readonly rating: number | null;
  readonly word_count: number | null;
  readonly tags: string | null;
  readonly post_id: number | null;
  readonly created_at: string;
  readonly updated_at: string;
}

type Insert = (values: unknown[]) => NoteRow;

function textProblem(value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null) return required ? "can't be blank" : undefined;
  if (typeof value !== "string") return "must be text";
  if (required && value.trim() === "") return "can't be blank";
  if (Buffer.byteLength(value) > MAX_TEXT_BYTES) {
    return `is too long (maximum is ${MAX_TEXT_BYTES} bytes)`;
  }
  return undefined;
}

/**
 * `POST /api/notes` by hand, for an authenticated user: the JSON body (content type, size
 * before parsing, an object), `title` and `body` checked as the app checks text (present,
 * not blank, at most 2 MB), `pinned` a boolean; then, in one BEGIN IMMEDIATE transaction, the
 * INSERT … RETURNING * and the owner's endpoint query, and 201 with the record as the app
 * encodes it. The note's other fields (dates, numbers, JSON, the post reference) are stored
 * as null and not decoded: the bench sends only a title and a body.
 */
export class CreateNote {
  readonly #create: Transaction<Insert>;

  constructor(database: Database) {
    const insert = database.prepare<unknown[], NoteRow>(INSERT);
    const endpoints = database.prepare<[number], unknown>(ENDPOINTS);
    this.#create = database.transaction((values: unknown[]) => {
      const row = insert.get(...values)!;
      endpoints.all(row.user_id);
      return row;
    });
  }

  async serve(request: IncomingMessage, response: ServerResponse, userId: number) {
    if (!request.headers["content-type"]?.startsWith("application/json")) {
      return sendError(response, 415, "unsupported_media_type", "Expected a JSON body");
    }
    const bytes = await readBody(request, MAX_JSON_BYTES);
    if (bytes === undefined) {
      const message = `Request body is too large (maximum is ${MAX_JSON_BYTES} bytes)`;
      return sendError(response, 413, "payload_too_large", message);
    }
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(bytes.toString("utf8"));
    } catch {
      return sendError(response, 400, "bad_request", "Invalid JSON body");
    }
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      return sendError(response, 400, "bad_request", "Invalid JSON body: expected an object");
    }
    const problems: Record<string, string[]> = {};
    const title = textProblem(input.title, true);
    const body = textProblem(input.body, false);
    if (title) problems.title = [title];
    if (body) problems.body = [body];
    if (input.pinned !== undefined && typeof input.pinned !== "boolean") {
      problems.pinned = ["must be true or false"];
    }
    if (Object.keys(problems).length > 0) {
      const envelope = {
        error: {
          code: "validation_failed",
          message: "Validation failed",
          status: 422,
          fields: problems,
        },
      };
      return sendJson(response, 422, JSON.stringify(envelope));
    }
    const now = sqlTimestamp(Date.now());
    const values = [
      userId,
      input.title,
      input.body ?? null,
      input.pinned === true ? 1 : 0,
      null,
      null,
      null,
      null,
      null,
      now,
      now,
    ];
    const row = this.#create.immediate(values);
    const record = {
      ...row,
      pinned: row.pinned === 1,
      tags: row.tags === null ? null : JSON.parse(row.tags),
    };
    sendJson(response, 201, JSON.stringify(record));
  }
}
