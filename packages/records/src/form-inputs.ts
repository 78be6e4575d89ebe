import {
  type AttachmentRules,
  DEFAULT_ATTACHMENT_RULES,
  type Field,
  type FieldMessages,
  type FormFile,
  type FormInput,
  fullMessage,
  humanizeFieldName,
  MAX_TEXT_BYTES,
} from "@tessera/fields";
import { escapeHtml } from "@tessera/http";
import type { RichTextEditor } from "./record-options.js";
import type { RecordRow } from "./record-store.js";

/** What a record form shows: the text of each input and the messages it earned. */
export interface FormState {
  /** Input name → text: what was typed (after a refusal) or the stored value (to edit). */
  readonly values: Readonly<Record<string, string>>;
  readonly errors: FieldMessages;
}

/** Checkbox values that mean unchecked, as `decodeForm` reads them. */
const UNCHECKED: ReadonlySet<string> = new Set(["", "0", "false", "off"]);

/** The input names of a field: its columns, or its own name for attachments. */
function inputNames(field: Field): readonly string[] {
  return field.type === "attachment" || field.type === "attachments" ? [] : field.columns;
}

/**
 * The text a refused form sent, per input, so the page shows exactly what was typed; except a
 * value longer than the text limit in characters (so over it in bytes too), which is refused
 * anyway and would make the page as large as the multipart body that carried it.
 */
export function typedValues(
  fields: readonly Field[],
  form: FormInput<FormFile>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of fields.flatMap(inputNames)) {
    const text = form.getAll(name).findLast((entry) => typeof entry === "string");
    if (typeof text === "string" && text.length <= MAX_TEXT_BYTES) values[name] = text;
  }
  return values;
}

/** A stored row as form text: numbers as written, json as its JSON text, null as empty. */
export function storedValues(fields: readonly Field[], row: RecordRow): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    for (const column of inputNames(field)) {
      const stored = row[column];
      if (stored === null || stored === undefined) values[column] = "";
      else if (field.type === "datetime") values[column] = String(stored).replace(" ", "T");
      else values[column] = String(stored);
    }
  }
  return values;
}

function errorList(id: string, name: string, errors: readonly string[]): string {
  if (errors.length === 0) return "";
  const items = errors.map((message) => `<li>${escapeHtml(fullMessage(name, message))}</li>`);
  return `<ul class="field-errors" id="${id}-errors">${items.join("")}</ul>`;
}

/** `aria-invalid` and the link to the messages, when there are any. */
function invalidAttributes(id: string, errors: readonly string[]): string {
  return errors.length > 0 ? ` aria-invalid="true" aria-describedby="${id}-errors"` : "";
}

/** One labelled control, ids as `renderErrorSummary` links them (`field-<name>`). */
function labelled(
  name: string,
  state: FormState,
  control: (id: string, attributes: string) => string,
): string {
  const id = `field-${name}`;
  const errors = state.errors[name] ?? [];
  return `<div class="field">
<label for="${id}">${escapeHtml(humanizeFieldName(name))}</label>
${control(id, `id="${id}" name="${escapeHtml(name)}"${invalidAttributes(id, errors)}`)}
${errorList(id, name, errors)}</div>`;
}

function textInput(name: string, state: FormState, extra: string): string {
  const value = escapeHtml(state.values[name] ?? "");
  return labelled(name, state, (_, attributes) => `<input ${attributes}${extra} value="${value}">`);
}

function selectInput(
  name: string,
  state: FormState,
  options: readonly string[],
  blank: boolean,
): string {
  const chosen = state.values[name] ?? (blank ? "" : options[0]);
  const choices = [...(blank ? [""] : []), ...options].map(
    (option) =>
      `<option value="${escapeHtml(option)}"${option === chosen ? " selected" : ""}>${escapeHtml(option)}</option>`,
  );
  return labelled(
    name,
    state,
    (_, attributes) => `<select ${attributes}>${choices.join("")}</select>`,
  );
}

function fileInput(field: Field, state: FormState, rules: AttachmentRules): string {
  const multiple = field.type === "attachments" ? " multiple" : "";
  const accept = escapeHtml(rules.contentTypes.join(","));
  return labelled(
    field.name,
    state,
    (_, attributes) => `<input ${attributes} type="file" accept="${accept}"${multiple}>`,
  );
}

/**
 * A Trix editor: the hidden input carries the HTML (what the form sends), the editor shows and
 * edits it. The editor takes the field's id, so the label and the error summary's link reach it;
 * `aria-labelledby` names it too, as not every tool reads a label of a custom element.
 */
function trixEditor(name: string, state: FormState, required: string): string {
  const id = `field-${name}`;
  const errors = state.errors[name] ?? [];
  const value = escapeHtml(state.values[name] ?? "");
  return `<div class="field">
<label for="${id}" id="${id}-label">${escapeHtml(humanizeFieldName(name))}</label>
<input type="hidden" id="${id}-input" name="${escapeHtml(name)}" value="${value}">
<trix-editor id="${id}" input="${id}-input" aria-labelledby="${id}-label" class="rich-text-editor"${invalidAttributes(id, errors)}${required}></trix-editor>
${errorList(id, name, errors)}</div>`;
}

/**
 * The inputs of one field. Numbers are text inputs with a numeric keyboard, so a refused value
 * comes back exactly as typed; a checkbox is preceded by a hidden `0` so unchecking is sent.
 * rich_text is a textarea of HTML, or with `richTextEditor: "trix"` a Trix editor.
 */
export function renderFieldInputs(
  field: Field,
  state: FormState,
  rules: AttachmentRules = DEFAULT_ATTACHMENT_RULES,
  richTextEditor: RichTextEditor = "textarea",
): string {
  const name = field.columns[0] ?? field.name;
  const required = field.optional ? "" : " required";
  if (field.type === "rich_text" && richTextEditor === "trix") {
    return trixEditor(name, state, required);
  }
  switch (field.type) {
    case "public_id":
      return "";
    case "lock_version":
      // Only an edit knows the version; a new record starts at the column's default.
      return state.values.lock_version === undefined
        ? ""
        : `<input type="hidden" name="lock_version" value="${escapeHtml(state.values.lock_version)}">`;
    case "text":
    case "rich_text":
    case "json": {
      const value = escapeHtml(state.values[name] ?? "");
      const spellcheck = field.type === "json" ? ` spellcheck="false"` : "";
      return labelled(
        name,
        state,
        (_, attributes) =>
          `<textarea ${attributes} rows="${field.type === "text" ? 4 : 8}"${required}${spellcheck}>${value}</textarea>`,
      );
    }
    case "integer":
    case "references":
      return textInput(name, state, ` type="text" inputmode="numeric"${required}`);
    case "float":
    case "decimal":
      return textInput(name, state, ` type="text" inputmode="decimal"${required}`);
    case "date":
      return textInput(name, state, ` type="date"${required}`);
    case "datetime":
      return textInput(name, state, ` type="datetime-local" step="1"${required}`);
    case "time":
      return textInput(name, state, ` type="time" step="1"${required}`);
    case "boolean": {
      const checked = !UNCHECKED.has(state.values[name] ?? "") ? " checked" : "";
      return `<input type="hidden" name="${escapeHtml(name)}" value="0">${labelled(
        name,
        state,
        (_, attributes) => `<input ${attributes} type="checkbox" value="1"${checked}>`,
      )}`;
    }
    case "enum":
      return selectInput(name, state, field.args, field.optional);
    case "polymorphic": {
      const [typeName, idName] = field.columns as readonly [string, string];
      return `${selectInput(typeName, state, field.args, field.optional)}
${textInput(idName, state, ` type="text" inputmode="numeric"${required}`)}`;
    }
    case "attachment":
    case "attachments":
      return fileInput(field, state, rules);
    default:
      return textInput(name, state, ` type="text"${required}`);
  }
}
