import { formatTimestamp } from "@tessera/core";
import type { ApiKeyJson, ApiKeyRecord } from "./api-key-store.js";

/** The JSON form of an API key (`GET /api/auth/keys`, `api_key` of a created one). */
export function apiKeyJson(record: ApiKeyRecord): ApiKeyJson {
  return {
    id: record.id,
    user_id: record.userId,
    name: record.name,
    last_used_at: record.lastUsedAt === null ? null : formatTimestamp(record.lastUsedAt),
    created_at: formatTimestamp(record.createdAt),
  };
}
