import {
  childTableName,
  createJsonSchema,
  type JsonSchema,
  type Model,
  recordJsonSchema,
  updateJsonSchema,
} from "@tessera/fields";
import { apiRecordSchema, embeddedSchema } from "./api-record-schema.js";
import { childFileField } from "./json-attachment-routes.js";
import { DEFAULT_MAXIMUM_JSON_BYTES } from "./json-record-routes.js";
import {
  BEARER_SCHEME,
  bearerScheme,
  errorComponents,
  LIST_PARAMETERS,
  type OpenApiObject,
} from "./openapi-components.js";
import { fileSchemaName, modelSchemaNames } from "./openapi-names.js";
import { recordPaths } from "./openapi-record-paths.js";

/** The document's `info`. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string | undefined;
}

/** Options of {@link openApiDocument}. */
export interface OpenApiDocumentOptions {
  /** The models whose `jsonRecordRoutes` are mounted, in the order to list them. */
  readonly models: readonly Model[];
  readonly info: OpenApiInfo;
  /** `servers` (default none: paths are relative to where the document is served). */
  readonly servers?:
    | ReadonlyArray<{ readonly url: string; readonly description?: string | undefined }>
    | undefined;
  /** The routes' `maximumJsonBytes`, for the 400's description (default 4 MiB, theirs). */
  readonly maximumJsonBytes?: number | undefined;
  /** What the bearer credentials are (default: a JWT or an API key of @tessera/bearer). */
  readonly bearerDescription?: string | undefined;
}

/** An OpenAPI 3.1 document as plain data: `JSON.stringify` gives the document. */
export type OpenApiDocument = {
  readonly openapi: "3.1.0";
  readonly info: OpenApiObject;
  readonly servers?: readonly OpenApiObject[] | undefined;
  readonly tags: readonly OpenApiObject[];
  readonly security: readonly OpenApiObject[];
  readonly paths: Readonly<Record<string, OpenApiObject>>;
  readonly components: OpenApiObject;
};

const DEFAULT_BEARER =
  "`Authorization: Bearer <token>`: a JWT from the token route, or an API key. Every route needs it.";

/** `components.schemas` of one model: its record, create and update bodies, its files. */
function modelSchemas(model: Model): Array<readonly [string, JsonSchema]> {
  const names = modelSchemaNames(model);
  const files = model.fields
    .filter((field) => field.type === "attachments")
    .map((field) => {
      const table = childTableName(model.name, field);
      const fileModel: Model = { name: table, table, fields: [childFileField(field)] };
      const schema = recordJsonSchema(fileModel, { ownedByUser: false });
      return [fileSchemaName(model, field), embeddedSchema(schema)] as const;
    });
  return [
    [names.record, apiRecordSchema(model)],
    [names.create, embeddedSchema(createJsonSchema(model))],
    [names.update, embeddedSchema(updateJsonSchema(model))],
    ...files,
  ];
}

/** A `servers` entry as given, less a `description` given as undefined (JSON has none). */
function serverObject(
  server: NonNullable<OpenApiDocumentOptions["servers"]>[number],
): OpenApiObject {
  const { description, ...rest } = server;
  return description === undefined ? rest : { ...rest, description };
}

/**
 * The OpenAPI 3.1 document of the JSON record routes of `models`, as `jsonRecordRoutes`
 * serves them: every path with its parameters, bodies and answers (201, 204, 400, 401, 404,
 * 409 where the model has `lock_version`, 422), the error envelope, a schema per record,
 * create body, update body and attachment file (see `recordJsonSchema` of @tessera/fields),
 * and the bearer scheme required on every operation. Plain data, built without I/O: build it
 * once at start and serve it as JSON.
 */
export function openApiDocument(options: OpenApiDocumentOptions): OpenApiDocument {
  const { info } = options;
  const maximumJsonBytes = options.maximumJsonBytes ?? DEFAULT_MAXIMUM_JSON_BYTES;
  const errors = errorComponents(maximumJsonBytes);
  return {
    openapi: "3.1.0",
    info: {
      title: info.title,
      version: info.version,
      ...(info.description === undefined ? {} : { description: info.description }),
    },
    ...(options.servers ? { servers: options.servers.map(serverObject) } : {}),
    tags: options.models.map((model) => ({
      name: model.table,
      description:
        model.owner === "organization"
          ? `An organization's ${model.table}, for its members as their role allows.`
          : `The signed-in user's ${model.table}.`,
    })),
    security: [{ [BEARER_SCHEME]: [] }],
    paths: Object.assign({}, ...options.models.map(recordPaths)),
    components: {
      schemas: Object.fromEntries([
        ...Object.entries(errors.schemas),
        ...options.models.flatMap(modelSchemas),
      ]),
      responses: errors.responses,
      parameters: LIST_PARAMETERS,
      securitySchemes: {
        [BEARER_SCHEME]: bearerScheme(options.bearerDescription ?? DEFAULT_BEARER),
      },
    },
  };
}
