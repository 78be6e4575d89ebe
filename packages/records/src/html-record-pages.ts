import { html, joinHtml, type MessageParams, type SafeHtml, unsafeHtml } from "@tessera/core";
import {
  type AttachmentRules,
  childAttachmentName,
  type Field,
  humanizeFieldName,
  type Model,
  type PreparedRichText,
  renderErrorSummary,
  richTextSanitizerOf,
} from "@tessera/fields";
import type { Layout, ListPage, PageContext } from "@tessera/http";
import { attachedFile } from "./attachment-download.js";
import { type FormState, fieldInputs } from "./form-inputs.js";
import { routeIdOf } from "./record-key.js";
import { modelTitle, type RecordMessageId, recordMessages } from "./record-messages.js";
import type { RichTextEditor } from "./record-options.js";
import type { RecordRow } from "./record-store.js";

/** Fields a listing can show in a table cell: short, plain values. */
const LISTED_TYPES: ReadonlySet<Field["type"]> = new Set([
  "string",
  "integer",
  "float",
  "boolean",
  "date",
  "datetime",
  "time",
  "decimal",
  "enum",
  "references",
]);

/** What a page shows for a value that is not there. */
const NONE = html`<span class="none">—</span>`;

/** The HTML record pages of one model, in the app's layout; rich_text in `richTextEditor`. */
export function recordPages(
  model: Model,
  layout: Layout,
  rulesOf: (name: string) => AttachmentRules,
  richTextEditor: RichTextEditor,
  base: string,
) {
  const title = modelTitle(model);
  const plural = humanizeFieldName(model.table);
  const pathOf = (row: RecordRow) => `${base}/${encodeURIComponent(routeIdOf(model, row))}`;
  const listed = model.fields.filter((field) => LISTED_TYPES.has(field.type)).slice(0, 3);
  const names = { model: title.toLowerCase(), models: plural.toLowerCase() };
  /** A message in the page's language, as HTML; the model's names are at hand. */
  const say = (context: PageContext, id: RecordMessageId, params?: MessageParams) =>
    html`${recordMessages.text(context.locale, id, { ...names, ...params })}`;

  /** The page in the app's layout, which takes its main content as a string of HTML. */
  const inLayout = (context: PageContext, pageTitle: string, main: SafeHtml) =>
    layout({ title: pageTitle, context, mainHtml: main.toString() });

  function plain(context: PageContext, field: Field, row: RecordRow, column: string): SafeHtml {
    const stored = row[column];
    if (stored === null || stored === undefined) return NONE;
    if (field.type === "boolean") return say(context, stored === 1 ? "records.yes" : "records.no");
    return html`${String(stored)}`;
  }

  function fileLink(context: PageContext, href: string, row: RecordRow, name: string): SafeHtml {
    const file = attachedFile(row, name);
    if (!file) return NONE;
    const details = say(context, "records.file_details", {
      type: file.contentType,
      size: file.size,
    });
    return html`<a href="${href}" download>${file.filename}</a> (${details})`;
  }

  /** One field's value on the show page. */
  function display(
    context: PageContext,
    field: Field,
    row: RecordRow,
    files: readonly RecordRow[],
    richText: PreparedRichText,
  ): SafeHtml {
    switch (field.type) {
      case "rich_text": {
        // Sanitized when saved; again here, for rows written by other means.
        const stored = row[field.name];
        if (typeof stored !== "string") return plain(context, field, row, field.name);
        const sanitized = richText.get(stored) ?? richTextSanitizerOf(field).sanitize(stored);
        // The sanitizer's output: only allowlisted markup, its text and attributes escaped.
        return html`<div class="rich-text">${unsafeHtml(sanitized)}</div>`;
      }
      case "json":
        return typeof row[field.name] === "string"
          ? html`<pre><code>${JSON.stringify(JSON.parse(row[field.name] as string), null, 2)}</code></pre>`
          : plain(context, field, row, field.name);
      case "polymorphic": {
        const [typeColumn, idColumn] = field.columns as readonly [string, string];
        if (row[typeColumn] === null) return plain(context, field, row, idColumn);
        return html`${humanizeFieldName(String(row[typeColumn]))} ${plain(context, field, row, idColumn)}`;
      }
      case "attachment":
        return fileLink(context, `${pathOf(row)}/${field.name}`, row, field.name);
      case "attachments": {
        if (files.length === 0) return NONE;
        const name = childAttachmentName(field);
        const items = files.map(
          (file) =>
            html`<li>${fileLink(context, `${pathOf(row)}/${field.name}/${String(file.id)}`, file, name)}</li>`,
        );
        return html`<ul class="files">${items}</ul>`;
      }
      default:
        return plain(context, field, row, field.columns[0] ?? field.name);
    }
  }

  function form(action: string, state: FormState, submit: SafeHtml): SafeHtml {
    const multipart = model.fields.some(
      (field) => field.type === "attachment" || field.type === "attachments",
    );
    const inputs = model.fields
      .map((field) => fieldInputs(field, state, rulesOf(field.name), richTextEditor))
      .filter((input) => input !== null);
    return html`<form method="post" action="${action}"${multipart && html` enctype="multipart/form-data"`} novalidate>
${joinHtml(inputs, "\n")}
<button type="submit">${submit}</button>
</form>`;
  }

  const alert = (message: string | undefined) =>
    message ? html`<div class="error-summary" role="alert"><p>${message}</p></div>\n` : null;

  // renderErrorSummary builds its markup with `html` (every message escaped); it gives a string.
  const errorSummary = (context: PageContext, state: FormState) =>
    unsafeHtml(renderErrorSummary(state.errors, context.locale));

  return {
    index(context: PageContext, rows: readonly RecordRow[], page: ListPage): string {
      const head = listed.map(
        (field) => html`<th scope="col">${humanizeFieldName(field.columns[0]!)}</th>`,
      );
      const body = rows.map((row) => {
        const cells = listed.map(
          (field) => html`<td>${plain(context, field, row, field.columns[0]!)}</td>`,
        );
        return html`<tr>${cells}<td><a href="${pathOf(row)}">${say(context, "records.show")}</a></td></tr>`;
      });
      const newer = Math.max(0, page.offset - page.limit);
      const links = [
        page.offset > 0
          ? html`<a href="${base}?offset=${newer}&amp;limit=${page.limit}" rel="prev">${say(context, "records.newer")}</a>`
          : null,
        rows.length === page.limit
          ? html`<a href="${base}?offset=${page.offset + page.limit}&amp;limit=${page.limit}" rel="next">${say(context, "records.older")}</a>`
          : null,
      ].filter((link) => link !== null);
      const table =
        rows.length === 0
          ? html`<p>${say(context, "records.none_yet")}</p>`
          : html`<table>
<thead><tr>${head}<th scope="col"><span class="visually-hidden">${say(context, "records.actions")}</span></th></tr></thead>
<tbody>${joinHtml(body, "\n")}</tbody>
</table>`;
      return inLayout(
        context,
        plural,
        html`<h1>${plural}</h1>
<p><a href="${base}/new">${say(context, "records.new")}</a></p>
${table}
${links.length > 0 && html`<nav aria-label="${say(context, "records.pages")}">${joinHtml(links, " ")}</nav>`}`,
      );
    },

    /** `richText`: the row's long rich_text values sanitized ahead, from `prepareRichText`. */
    show(
      context: PageContext,
      row: RecordRow,
      files: Readonly<Record<string, RecordRow[]>>,
      richText: PreparedRichText,
    ) {
      const facts = model.fields
        .filter((field) => field.type !== "lock_version")
        .map(
          (field) =>
            html`<dt>${humanizeFieldName(field.name)}</dt><dd>${display(context, field, row, files[field.name] ?? [], richText)}</dd>`,
        );
      return inLayout(
        context,
        `${title} ${routeIdOf(model, row)}`,
        html`<h1>${title}</h1>
<dl class="facts">
${joinHtml(facts, "\n")}
<dt>${say(context, "records.created_at")}</dt><dd>${String(row.created_at)} UTC</dd>
<dt>${say(context, "records.updated_at")}</dt><dd>${String(row.updated_at)} UTC</dd>
</dl>
<p><a href="${pathOf(row)}/edit">${say(context, "records.edit")}</a> · <a href="${base}">${say(context, "records.back_to")}</a></p>
<form method="post" action="${pathOf(row)}/delete"><button type="submit">${say(context, "records.delete_this")}</button></form>`,
      );
    },

    newForm(context: PageContext, state: FormState): string {
      const heading = recordMessages.text(context.locale, "records.new", names);
      return inLayout(
        context,
        heading,
        html`<h1>${heading}</h1>
${errorSummary(context, state)}
${form(base, state, say(context, "records.create"))}
<p><a href="${base}">${say(context, "records.back_to")}</a></p>`,
      );
    },

    editForm(context: PageContext, row: RecordRow, state: FormState, message?: string): string {
      const heading = recordMessages.text(context.locale, "records.edit_heading", names);
      return inLayout(
        context,
        heading,
        html`<h1>${heading}</h1>
${alert(message)}${errorSummary(context, state)}
${form(pathOf(row), state, say(context, "records.update"))}
<p><a href="${pathOf(row)}">${say(context, "records.cancel")}</a></p>`,
      );
    },

    /** A page with a heading and one sentence: 404, 400 and 413 answers. */
    message(context: PageContext, heading: string, text: string): string {
      return inLayout(
        context,
        heading,
        html`<h1>${heading}</h1>
<p>${text}</p>
<p><a href="${base}">${say(context, "records.back_to")}</a></p>`,
      );
    },
  };
}

/** The pages of one model. */
export type RecordPages = ReturnType<typeof recordPages>;
