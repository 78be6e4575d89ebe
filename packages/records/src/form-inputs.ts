import { html, type SafeHtml } from "@tessera/core";
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

function errorList(id: string, name: string, errors: readonly string[]): SafeHtml {
  if (errors.length === 0) return html``;
  const items = errors.map((message) => html`<li>${fullMessage(name, message)}</li>`);
  return html`<ul class="field-errors" id="${id}-errors">${items}</ul>`;
}

/** `aria-invalid` and the link to the messages, when there are any. */
function invalidAttributes(id: string, errors: readonly string[]): SafeHtml {
  return errors.length > 0 ? html` aria-invalid="true" aria-describedby="${id}-errors"` : html``;
}

/**
 * One labelled control, ids as `renderErrorSummary` links them (`field-<name>`); `control` is
 * given the control's `id`, `name` and validity attributes to write into its tag.
 */
function labelled(
  name: string,
  state: FormState,
  control: (attributes: SafeHtml) => SafeHtml,
): SafeHtml {
  const id = `field-${name}`;
  const errors = state.errors[name] ?? [];
  return html`<div class="field">
<label for="${id}">${humanizeFieldName(name)}</label>
${control(html`id="${id}" name="${name}"${invalidAttributes(id, errors)}`)}
${errorList(id, name, errors)}</div>`;
}

function textInput(name: string, state: FormState, extra: SafeHtml): SafeHtml {
  const value = state.values[name] ?? "";
  return labelled(
    name,
    state,
    (attributes) => html`<input ${attributes}${extra} value="${value}">`,
  );
}

function selectInput(
  name: string,
  state: FormState,
  options: readonly string[],
  blank: boolean,
): SafeHtml {
  const chosen = state.values[name] ?? (blank ? "" : options[0]);
  const choices = [...(blank ? [""] : []), ...options].map(
    (option) =>
      html`<option value="${option}"${option === chosen && html` selected`}>${option}</option>`,
  );
  return labelled(name, state, (attributes) => html`<select ${attributes}>${choices}</select>`);
}

function fileInput(field: Field, state: FormState, rules: AttachmentRules): SafeHtml {
  const multiple = field.type === "attachments" && html` multiple`;
  const accept = rules.contentTypes.join(",");
  return labelled(
    field.name,
    state,
    (attributes) => html`<input ${attributes} type="file" accept="${accept}"${multiple}>`,
  );
}

/**
 * A Trix editor: the hidden input carries the HTML (what the form sends), the editor shows and
 * edits it. The editor takes the field's id, so the label and the error summary's link reach it;
 * `aria-labelledby` names it too, as not every tool reads a label of a custom element.
 */
function trixEditor(name: string, state: FormState, required: SafeHtml): SafeHtml {
  const id = `field-${name}`;
  const errors = state.errors[name] ?? [];
  return html`<div class="field">
<label for="${id}" id="${id}-label">${humanizeFieldName(name)}</label>
<input type="hidden" id="${id}-input" name="${name}" value="${state.values[name] ?? ""}">
<trix-editor id="${id}" input="${id}-input" aria-labelledby="${id}-label" class="rich-text-editor"${invalidAttributes(id, errors)}${required}></trix-editor>
${errorList(id, name, errors)}</div>`;
}

/**
 * The inputs of one field as {@link renderFieldInputs} writes them, as a piece of a page built
 * with `html`; null for a field the form has no input for (a public id, a new record's lock
 * version).
 */
export function fieldInputs(
  field: Field,
  state: FormState,
  rules: AttachmentRules = DEFAULT_ATTACHMENT_RULES,
  richTextEditor: RichTextEditor = "textarea",
): SafeHtml | null {
  const name = field.columns[0] ?? field.name;
  const required = field.optional ? html`` : html` required`;
  if (field.type === "rich_text" && richTextEditor === "trix") {
    return trixEditor(name, state, required);
  }
  switch (field.type) {
    case "public_id":
      return null;
    case "lock_version":
      // Only an edit knows the version; a new record starts at the column's default.
      return state.values.lock_version === undefined
        ? null
        : html`<input type="hidden" name="lock_version" value="${state.values.lock_version}">`;
    case "text":
    case "rich_text":
    case "json": {
      const value = state.values[name] ?? "";
      const rows = field.type === "text" ? 4 : 8;
      const spellcheck = field.type === "json" && html` spellcheck="false"`;
      return labelled(
        name,
        state,
        (attributes) =>
          html`<textarea ${attributes} rows="${rows}"${required}${spellcheck}>${value}</textarea>`,
      );
    }
    case "integer":
    case "references":
      return textInput(name, state, html` type="text" inputmode="numeric"${required}`);
    case "float":
    case "decimal":
      return textInput(name, state, html` type="text" inputmode="decimal"${required}`);
    case "date":
      return textInput(name, state, html` type="date"${required}`);
    case "datetime":
      return textInput(name, state, html` type="datetime-local" step="1"${required}`);
    case "time":
      return textInput(name, state, html` type="time" step="1"${required}`);
    case "boolean": {
      const checked = !UNCHECKED.has(state.values[name] ?? "") && html` checked`;
      return html`<input type="hidden" name="${name}" value="0">${labelled(
        name,
        state,
        (attributes) => html`<input ${attributes} type="checkbox" value="1"${checked}>`,
      )}`;
    }
    case "enum":
      return selectInput(name, state, field.args, field.optional);
    case "polymorphic": {
      const [typeName, idName] = field.columns as readonly [string, string];
      return html`${selectInput(typeName, state, field.args, field.optional)}
${textInput(idName, state, html` type="text" inputmode="numeric"${required}`)}`;
    }
    case "attachment":
    case "attachments":
      return fileInput(field, state, rules);
    default:
      return textInput(name, state, html` type="text"${required}`);
  }
}

/**
 * The inputs of one field. Numbers are text inputs with a numeric keyboard, so a refused value
 * comes back exactly as typed; a checkbox is preceded by a hidden `0` so unchecking is sent.
 * rich_text is a textarea of HTML, or with `richTextEditor: "trix"` a Trix editor. An empty
 * string for a field the form has no input for.
 */
export function renderFieldInputs(
  field: Field,
  state: FormState,
  rules: AttachmentRules = DEFAULT_ATTACHMENT_RULES,
  richTextEditor: RichTextEditor = "textarea",
): string {
  return fieldInputs(field, state, rules, richTextEditor)?.toString() ?? "";
}
