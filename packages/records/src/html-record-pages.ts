import type { MessageParams } from "@tessera/core";
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
import { escapeHtml } from "@tessera/http";
import { attachedFile } from "./attachment-download.js";
import { type FormState, renderFieldInputs } from "./form-inputs.js";
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

/** The HTML record pages of one model, in the app's layout; rich_text in `richTextEditor`. */
export function recordPages(
  model: Model,
  layout: Layout,
  rulesOf: (name: string) => AttachmentRules,
  richTextEditor: RichTextEditor = "textarea",
) {
  const title = modelTitle(model);
  const plural = humanizeFieldName(model.table);
  const base = `/${model.table}`;
  const pathOf = (row: RecordRow) => `${base}/${encodeURIComponent(routeIdOf(model, row))}`;
  const listed = model.fields.filter((field) => LISTED_TYPES.has(field.type)).slice(0, 3);
  const names = { model: title.toLowerCase(), models: plural.toLowerCase() };
  /** A message in the page's language, escaped for HTML; the model's names are at hand. */
  const say = (context: PageContext, id: RecordMessageId, params?: MessageParams) =>
    escapeHtml(recordMessages.text(context.locale, id, { ...names, ...params }));

  function plain(context: PageContext, field: Field, row: RecordRow, column: string): string {
    const stored = row[column];
    if (stored === null || stored === undefined) return `<span class="none">—</span>`;
    if (field.type === "boolean") return say(context, stored === 1 ? "records.yes" : "records.no");
    return escapeHtml(String(stored));
  }

  function fileLink(context: PageContext, href: string, row: RecordRow, name: string): string {
    const file = attachedFile(row, name);
    if (!file) return `<span class="none">—</span>`;
    const details = say(context, "records.file_details", {
      type: file.contentType,
      size: file.size,
    });
    return `<a href="${escapeHtml(href)}" download>${escapeHtml(file.filename)}</a> (${details})`;
  }

  /** One field's value on the show page, as trusted HTML. */
  function display(
    context: PageContext,
    field: Field,
    row: RecordRow,
    files: readonly RecordRow[],
    richText: PreparedRichText,
  ): string {
    switch (field.type) {
      case "rich_text": {
        // Sanitized when saved; again here, for rows written by other means.
        const stored = row[field.name];
        if (typeof stored !== "string") return plain(context, field, row, field.name);
        const html = richText.get(stored) ?? richTextSanitizerOf(field).sanitize(stored);
        return `<div class="rich-text">${html}</div>`;
      }
      case "json":
        return typeof row[field.name] === "string"
          ? `<pre><code>${escapeHtml(JSON.stringify(JSON.parse(row[field.name] as string), null, 2))}</code></pre>`
          : plain(context, field, row, field.name);
      case "polymorphic": {
        const [typeColumn, idColumn] = field.columns as readonly [string, string];
        if (row[typeColumn] === null) return plain(context, field, row, idColumn);
        return `${escapeHtml(humanizeFieldName(String(row[typeColumn])))} ${plain(context, field, row, idColumn)}`;
      }
      case "attachment":
        return fileLink(context, `${pathOf(row)}/${field.name}`, row, field.name);
      case "attachments": {
        if (files.length === 0) return `<span class="none">—</span>`;
        const name = childAttachmentName(field);
        const items = files.map(
          (file) =>
            `<li>${fileLink(context, `${pathOf(row)}/${field.name}/${String(file.id)}`, file, name)}</li>`,
        );
        return `<ul class="files">${items.join("")}</ul>`;
      }
      default:
        return plain(context, field, row, field.columns[0] ?? field.name);
    }
  }

  function form(action: string, state: FormState, submit: string): string {
    const multipart = model.fields.some(
      (field) => field.type === "attachment" || field.type === "attachments",
    );
    const inputs = model.fields.map((field) =>
      renderFieldInputs(field, state, rulesOf(field.name), richTextEditor),
    );
    return `<form method="post" action="${escapeHtml(action)}"${multipart ? ` enctype="multipart/form-data"` : ""} novalidate>
${inputs.filter((html) => html !== "").join("\n")}
<button type="submit">${submit}</button>
</form>`;
  }

  const alert = (message: string | undefined) =>
    message ? `<div class="error-summary" role="alert"><p>${escapeHtml(message)}</p></div>\n` : "";

  return {
    index(context: PageContext, rows: readonly RecordRow[], page: ListPage): string {
      const head = listed.map(
        (field) => `<th scope="col">${escapeHtml(humanizeFieldName(field.columns[0]!))}</th>`,
      );
      const body = rows.map((row) => {
        const cells = listed.map(
          (field) => `<td>${plain(context, field, row, field.columns[0]!)}</td>`,
        );
        return `<tr>${cells.join("")}<td><a href="${escapeHtml(pathOf(row))}">${say(context, "records.show")}</a></td></tr>`;
      });
      const newer = Math.max(0, page.offset - page.limit);
      const links = [
        page.offset > 0
          ? `<a href="${base}?offset=${newer}&amp;limit=${page.limit}" rel="prev">${say(context, "records.newer")}</a>`
          : "",
        rows.length === page.limit
          ? `<a href="${base}?offset=${page.offset + page.limit}&amp;limit=${page.limit}" rel="next">${say(context, "records.older")}</a>`
          : "",
      ].filter((link) => link !== "");
      const table =
        rows.length === 0
          ? `<p>${say(context, "records.none_yet")}</p>`
          : `<table>
<thead><tr>${head.join("")}<th scope="col"><span class="visually-hidden">${say(context, "records.actions")}</span></th></tr></thead>
<tbody>${body.join("\n")}</tbody>
</table>`;
      return layout({
        title: plural,
        context,
        mainHtml: `<h1>${escapeHtml(plural)}</h1>
<p><a href="${base}/new">${say(context, "records.new")}</a></p>
${table}
${links.length > 0 ? `<nav aria-label="${say(context, "records.pages")}">${links.join(" ")}</nav>` : ""}`,
      });
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
            `<dt>${escapeHtml(humanizeFieldName(field.name))}</dt><dd>${display(context, field, row, files[field.name] ?? [], richText)}</dd>`,
        );
      return layout({
        title: `${title} ${routeIdOf(model, row)}`,
        context,
        mainHtml: `<h1>${escapeHtml(title)}</h1>
<dl class="facts">
${facts.join("\n")}
<dt>${say(context, "records.created_at")}</dt><dd>${escapeHtml(String(row.created_at))} UTC</dd>
<dt>${say(context, "records.updated_at")}</dt><dd>${escapeHtml(String(row.updated_at))} UTC</dd>
</dl>
<p><a href="${escapeHtml(pathOf(row))}/edit">${say(context, "records.edit")}</a> · <a href="${base}">${say(context, "records.back_to")}</a></p>
<form method="post" action="${escapeHtml(pathOf(row))}/delete"><button type="submit">${say(context, "records.delete_this")}</button></form>`,
      });
    },

    newForm(context: PageContext, state: FormState): string {
      const heading = recordMessages.text(context.locale, "records.new", names);
      return layout({
        title: heading,
        context,
        mainHtml: `<h1>${escapeHtml(heading)}</h1>
${renderErrorSummary(state.errors, context.locale)}
${form(base, state, say(context, "records.create"))}
<p><a href="${base}">${say(context, "records.back_to")}</a></p>`,
      });
    },

    editForm(context: PageContext, row: RecordRow, state: FormState, message?: string): string {
      const heading = recordMessages.text(context.locale, "records.edit_heading", names);
      return layout({
        title: heading,
        context,
        mainHtml: `<h1>${escapeHtml(heading)}</h1>
${alert(message)}${renderErrorSummary(state.errors, context.locale)}
${form(pathOf(row), state, say(context, "records.update"))}
<p><a href="${escapeHtml(pathOf(row))}">${say(context, "records.cancel")}</a></p>`,
      });
    },

    /** A page with a heading and one sentence: 404, 400 and 413 answers. */
    message(context: PageContext, heading: string, text: string): string {
      return layout({
        title: heading,
        context,
        mainHtml: `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${base}">${say(context, "records.back_to")}</a></p>`,
      });
    },
  };
}

/** The pages of one model. */
export type RecordPages = ReturnType<typeof recordPages>;
