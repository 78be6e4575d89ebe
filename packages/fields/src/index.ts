export {
  type AttachmentRules,
  DEFAULT_ATTACHMENT_RULES,
  type FileFacts,
  mediaType,
  validateAttachment,
} from "./attachment-rules.js";
export { isCalendarDate, isDateTime, isTimeOfDay } from "./calendar.js";
export { columnDefinitions, fieldIndexes } from "./column-ddl.js";
export { type CreateTableOptions, createTableSql } from "./create-table.js";
export {
  type DeclarationContext,
  type DefineModelOptions,
  defineModel,
  type ParsedFields,
  parseDeclaration,
  parseDeclarations,
} from "./declaration.js";
export { type DeclarationRefusal, refuse } from "./declaration-errors.js";
export { decodeForm, type FormDecodeOptions } from "./decode-form.js";
export {
  decodeJsonCreate,
  decodeJsonUpdate,
  type JsonCreateOptions,
  type JsonUpdateOptions,
} from "./decode-json.js";
export {
  type ColumnValue,
  DESERIALIZE_PREFIX,
  type DecodedForm,
  type DecodedRecord,
  type DecodeResult,
  type FormFile,
  type FormInput,
  type Upload,
} from "./decode-result.js";
export { encodeRecord, type JsonValue, type Row } from "./encode-record.js";
export { errorSummaryHtml, renderErrorSummary } from "./error-summary.js";
export {
  attachmentColumns,
  childAttachmentName,
  childTableName,
  type Field,
  type FieldType,
  type Model,
  SNAKE_CASE,
} from "./field.js";
export type { Declarations } from "./infer/check.js";
export { camelize, pluralize, singularize } from "./inflection.js";
export {
  createJsonSchema,
  JSON_SCHEMA_DIALECT,
  type JsonSchema,
  type RecordSchemaOptions,
  recordJsonSchema,
  updateJsonSchema,
} from "./json-schema.js";
export {
  BLANK,
  describeJsonValue,
  type FieldMessages,
  fullMessage,
  humanizeFieldName,
  INVALID,
  localizeFieldMessages,
  localizeValidationMessage,
  MAX_TEXT_BYTES,
  MUST_EXIST,
  NOT_A_DATE,
  NOT_A_DATETIME,
  NOT_A_DECIMAL,
  NOT_A_NUMBER,
  NOT_A_TIME,
  NOT_A_UUID,
  NOT_IN_LIST,
  NOT_JSON,
  TAKEN,
  TOO_BIG,
  TOO_LONG,
  TOO_SMALL,
  tooLargeMessage,
  tooLongMessage,
  validationMessages,
} from "./messages.js";
export {
  type ModelEventsOption,
  RECORD_EVENT_ACTIONS,
  type RecordEventAction,
} from "./model-events.js";
export {
  isDecimalText,
  MAX_INTEGER,
  MIN_INTEGER,
  parseFloatText,
  parseIntegerText,
} from "./number-text.js";
export { isPublicId, newPublicId } from "./public-id.js";
export {
  ORGANIZATION_TABLE,
  OWNER_TABLE,
  ownerColumnOf,
  ownerColumnsOf,
  ownerKindOf,
  ownerTableOf,
  RECORD_OWNER_KINDS,
  type RecordOwnerKind,
} from "./record-owner.js";
export { RESERVED_NAMES } from "./reserved-names.js";
export {
  isBlankRichText,
  type RichTextSanitizer,
  richTextSanitizerOf,
  withRichText,
} from "./rich-text.js";
export { type PreparedRichText, prepareRichText } from "./rich-text-prepare.js";
export { POSTGRES, quoteIdentifier, SQLITE, type SqlDialect } from "./sql-dialect.js";
export { MAX_JSON_DEPTH, unstorableJson } from "./storable-json.js";
export type {
  CreateInputOf,
  CreateValuesOf,
  DefinedModel,
  LooseModelTypes,
  LooseRecord,
  LooseValues,
  ModelTypes,
  RecordOf,
  TypesOf,
  UpdateInputOf,
  UpdateValuesOf,
} from "./typed-model.js";
export { type UniqueScope, type UniqueScopeOption, withUniqueScope } from "./unique-scope.js";
export { isUuidText } from "./uuid.js";
