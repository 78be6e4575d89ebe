import {
  decodeJsonCreate,
  decodeJsonUpdate,
  encodeRecord,
  parseIntegerText,
  prepareRichText,
} from "@tessera/fields";
import {
  DEFAULT_LIST_LIMIT,
  LIMIT_MESSAGE,
  MAXIMUM_LIST_LIMIT,
  OFFSET_MESSAGE,
} from "@tessera/http";
import {
  type RecordContext,
  type RecordRoutesOptions,
  type RecordRow,
  recordKeyOf,
  recordWrites,
} from "@tessera/records";
import type { GraphqlModel } from "./graphql-model.js";
import {
  badUserInputError,
  conflictError,
  decodeError,
  notFoundError,
  unauthenticatedError,
  validationError,
} from "./record-errors.js";

/** A record as the resolvers return it: GraphQL field name → value. */
export type GraphqlRecord = Readonly<Record<string, unknown>>;

/** The arguments of the list query, as GraphQL coerced them (absent or null: the default). */
export interface ListArguments {
  readonly limit?: number | null | undefined;
  readonly offset?: number | null | undefined;
}

/**
 * The five operations of one model, each given the owner it acts for: the signed-in user, or
 * for an organization's model the organization (with the member as `createdBy`).
 */
export interface RecordResolvers {
  list(args: ListArguments, context: RecordContext): Promise<GraphqlRecord[]>;
  show(id: string, context: RecordContext): Promise<GraphqlRecord | null>;
  create(input: GraphqlRecord, context: RecordContext): Promise<GraphqlRecord>;
  update(id: string, input: GraphqlRecord, context: RecordContext): Promise<GraphqlRecord>;
  delete(id: string, context: RecordContext): Promise<boolean>;
}

/**
 * The operations of a model on the JSON API's own path: the input becomes the JSON body it
 * stands for (keys by column), which `decodeJsonCreate` / `decodeJsonUpdate` of
 * `@tessera/fields` decode and validate and `recordWrites` of `@tessera/records` stores, and
 * each row goes out through `encodeRecord`. Refusals throw GraphQL errors with
 * `extensions.code` and `extensions.status` (see `RECORD_ERROR_STATUS`).
 */
export function recordResolvers(
  model: GraphqlModel,
  options: RecordRoutesOptions,
): RecordResolvers {
  const { store } = options;
  const names = model.graphql;
  const writes = recordWrites({ ...options, model });
  const decodeOptions = options.newPublicId ? { newPublicId: options.newPublicId } : {};

  const toGraphql = (row: RecordRow): GraphqlRecord => {
    const encoded = encodeRecord(model.fields, row);
    const record: Record<string, unknown> = {};
    for (const { name, column } of names.output) record[name] = encoded[column];
    return record;
  };

  /** The JSON body an input stands for: only the keys GraphQL was sent, by column. */
  const jsonBodyOf = (input: GraphqlRecord): Record<string, unknown> => {
    const body: Record<string, unknown> = {};
    for (const { name, column, kind } of names.input) {
      if (!Object.hasOwn(input, name)) continue;
      const value = input[name];
      // GraphQL hands an ID over as text; the JSON API reads a reference as a number. An enum
      // arrives as its value, which is its name.
      const number =
        kind === "ID" && typeof value === "string" ? parseIntegerText(value) : undefined;
      body[column] = number ?? value;
    }
    return body;
  };

  return {
    async list(args, context) {
      const limit = args.limit ?? DEFAULT_LIST_LIMIT;
      const offset = args.offset ?? 0;
      if (limit < 1 || limit > MAXIMUM_LIST_LIMIT) throw badUserInputError(LIMIT_MESSAGE);
      if (offset < 0) throw badUserInputError(OFFSET_MESSAGE);
      const rows = await store.list(context.ownerId, { limit, offset });
      return rows.map(toGraphql);
    },

    async show(id, context) {
      const key = recordKeyOf(model, id);
      const row = key && (await store.find(context.ownerId, key));
      return row ? toGraphql(row) : null;
    },

    async create(input, context) {
      const body = jsonBodyOf(input);
      const richText = await prepareRichText(model.fields, body);
      const decoded = decodeJsonCreate(model.fields, body, { ...decodeOptions, richText });
      if (!decoded.ok) throw decodeError(names, decoded, context.locale);
      const { values } = decoded.value;
      // An organization's record says which member created it, as the JSON API's does.
      const created = await writes.create(
        context.ownerId,
        context.createdBy === undefined ? values : { ...values, created_by: context.createdBy },
      );
      if (!created.ok) {
        throw created.reason === "owner-missing"
          ? unauthenticatedError(context.locale)
          : validationError(names, created.fields, context.locale);
      }
      return toGraphql(created.row);
    },

    async update(id, input, context) {
      const key = recordKeyOf(model, id);
      // Found first, as the JSON API does: any input for another user's record is not found.
      if (!key || !(await store.find(context.ownerId, key))) throw notFoundError(context.locale);
      const body = jsonBodyOf(input);
      const richText = await prepareRichText(model.fields, body);
      const decoded = decodeJsonUpdate(model.fields, body, { richText });
      if (!decoded.ok) throw decodeError(names, decoded, context.locale);
      const { values, lockVersion } = decoded.value;
      const updated = await writes.update(context.ownerId, key, values, lockVersion);
      if (updated.ok) return toGraphql(updated.row);
      if (updated.reason === "invalid")
        throw validationError(names, updated.fields, context.locale);
      if (updated.reason === "owner-missing") throw unauthenticatedError(context.locale);
      throw updated.reason === "stale"
        ? conflictError(context.locale)
        : notFoundError(context.locale);
    },

    async delete(id, context) {
      const key = recordKeyOf(model, id);
      const removed = key && (await writes.remove(context.ownerId, key));
      if (!removed || (!removed.ok && removed.reason === "not-found"))
        throw notFoundError(context.locale);
      if (!removed.ok) throw validationError(names, removed.fields, context.locale);
      return true;
    },
  };
}
