export { type DownloadOptions, downloadResponse } from "./attachment-download.js";
export { jsonRecordsPath } from "./json-record-paths.js";
export { DEFAULT_MAXIMUM_JSON_BYTES, jsonRecordRoutes } from "./json-record-routes.js";
export { MemoryRecordStore, MemoryRecordTables } from "./memory-record-store.js";
export { MemoryObjectStorage } from "./memory-storage.js";
export {
  DEFAULT_MAXIMUM_MULTIPART_PARTS,
  DEFAULT_MAXIMUM_PARTS_PER_NAME,
} from "./multipart-body.js";
export {
  type ByteRange,
  isStorageKey,
  newStorageKey,
  type ObjectStorage,
  type StoredObject,
  type StoredObjectInfo,
  type StoredObjectPart,
} from "./object-storage.js";
export {
  DEFAULT_SWEEP_GRACE_MS,
  type ListableObjectStorage,
  type StoredObjectEntry,
  type SweepOptions,
  sweepUnreferencedObjects,
} from "./object-sweep.js";
export { type StoredFileCleanupOptions, storedFileCleanups } from "./object-sweep-cleanups.js";
export type { OpenApiObject } from "./openapi-components.js";
export {
  type OpenApiDocument,
  type OpenApiDocumentOptions,
  type OpenApiInfo,
  openApiDocument,
} from "./openapi-document.js";
export {
  type R2Bucket,
  type R2ObjectHead,
  R2ObjectStorage,
  type R2StoredObject,
} from "./r2-storage.js";
export {
  MAXIMUM_RECORD_EVENT_BYTES,
  recordEventData,
  recordEventType,
} from "./record-event-data.js";
export type { RecordEventSink } from "./record-event-sink.js";
export { type RecordEventType, recordEventTypes } from "./record-event-types.js";
export type {
  AfterHookName,
  AfterUpdateEvent,
  BeforeCreateEvent,
  BeforeUpdateEvent,
  RecordEvent,
  RecordHooks,
  RecordHookVerdict,
} from "./record-hooks.js";
export { hasPublicId, recordKeyOf } from "./record-key.js";
export {
  type RecordErrorCode,
  type RecordMessageId,
  recordMessages,
  STALE_RECORD,
  TOO_MANY_PARTS,
} from "./record-messages.js";
export type {
  JsonRecordRoutesOptions,
  RecordCaller,
  RecordContext,
  RecordRouteContext,
  RecordRoutesOptions,
  RecordUser,
} from "./record-options.js";
export {
  type RecordAction,
  type RecordScope,
  type RecordScopeInput,
  recordActionOf,
  userRecords,
} from "./record-owner.js";
export type {
  ColumnValues,
  DeletedRecord,
  InsertOutcome,
  RecordChange,
  RecordKey,
  RecordRow,
  RecordStore,
  StoredFile,
  UpdateOutcome,
  WriteRefusal,
} from "./record-store.js";
export {
  type RecordWrites,
  type RemoveResult,
  recordWrites,
  type UpdateResult,
  type WriteResult,
} from "./record-writes.js";
