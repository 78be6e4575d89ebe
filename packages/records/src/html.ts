// `@tessera/records/html`: the HTML pages of a model (list, show, new, edit, delete) and the form
// pieces they are made of. An app that serves only JSON (a Worker, an API) never loads them.
export { type FormState, renderFieldInputs, typedValues } from "./form-inputs.js";
export {
  DEFAULT_MAXIMUM_MULTIPART_BYTES,
  DEFAULT_MAXIMUM_URLENCODED_BYTES,
  htmlRecordRoutes,
} from "./html-record-routes.js";
export type {
  FlashSession,
  HtmlRecordContext,
  HtmlRecordRoutesOptions,
  RichTextEditor,
} from "./record-options.js";
