import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** An OpenAPI document as JSON data. */
export type OpenApiDocument = Record<string, unknown>;

/** The document `tessera generate client` reads, or why it could not. */
export type DocumentRead =
  | { readonly ok: true; readonly value: OpenApiDocument }
  | { readonly ok: false; readonly reason: string; readonly hint: string };

/**
 * The OpenAPI document at `from`: fetched when it is an `http(s)://` URL (the app serves its
 * own at `GET /api/openapi.json`), else read from the file `from` names in `root`.
 */
export async function readOpenApiDocument(from: string, root: string): Promise<DocumentRead> {
  const isUrl = /^https?:\/\//i.test(from);
  let text: string;
  try {
    if (isUrl) {
      const response = await fetch(from, { headers: { accept: "application/json" } });
      if (!response.ok) {
        return {
          ok: false,
          reason: `${from} answered ${response.status}`,
          hint: "pass `--from` the address of the app's OpenAPI document (`/api/openapi.json`)",
        };
      }
      text = await response.text();
    } else {
      text = readFileSync(resolve(root, from), "utf8");
    }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    return isUrl
      ? {
          ok: false,
          reason: `cannot reach ${from} (${cause})`,
          hint: "start the app first, or pass `--from <file>` with its document saved",
        }
      : { ok: false, reason: `cannot read \`${from}\``, hint: "pass `--from` an existing file" };
  }
  return parsedDocument(text, from);
}

function parsedDocument(text: string, from: string): DocumentRead {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return notADocument(from);
  }
  const shape = document as { openapi?: unknown; paths?: unknown } | null;
  if (typeof shape?.openapi !== "string" || typeof shape.paths !== "object" || !shape.paths) {
    return notADocument(from);
  }
  return { ok: true, value: document as OpenApiDocument };
}

function notADocument(from: string): DocumentRead {
  return {
    ok: false,
    reason: `${from} is not an OpenAPI document in JSON`,
    hint: "pass `--from` the app's `/api/openapi.json` (or a file holding it)",
  };
}

/**
 * `document` with its request bodies closed: a body schema with `properties` and
 * `additionalProperties: true` loses the latter. A Tessera route ignores keys it does not know,
 * and its document says so; a client's types should refuse them instead, so that a misspelt
 * field is a type error rather than a value silently dropped. Answers keep their schemas.
 */
export function closedRequestBodies(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  const schemas = ((copy.components as { schemas?: Record<string, unknown> } | undefined)
    ?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  for (const item of Object.values((copy.paths ?? {}) as Record<string, object>)) {
    for (const operation of Object.values(item) as { requestBody?: unknown }[]) {
      const content = (operation?.requestBody as { content?: Record<string, unknown> } | undefined)
        ?.content;
      for (const media of Object.values(content ?? {}) as { schema?: Record<string, unknown> }[]) {
        const schema = media?.schema;
        const ref = typeof schema?.$ref === "string" ? schema.$ref : undefined;
        const named = ref?.match(/^#\/components\/schemas\/(.+)$/)?.[1];
        close(named === undefined ? schema : schemas[named]);
      }
    }
  }
  return copy;
}

function close(schema: Record<string, unknown> | undefined): void {
  if (schema?.properties && schema.additionalProperties === true) {
    delete schema.additionalProperties;
  }
}
