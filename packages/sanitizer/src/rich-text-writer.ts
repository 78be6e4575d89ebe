import type { HtmlHandler } from "./html-reader.js";
import { closesWhenOpening } from "./html-tree-rules.js";
import { keptAttributes } from "./rich-text-attributes.js";
import { CONTENT_DROPPED_TAGS, KEPT_TAGS, RICH_TEXT_TAGS, VOID_TAGS } from "./rich-text-tags.js";

const TEXT_MARKUP = /[&<>]/;

// Not @tessera/core's escapeHtml: quotes stay as written in text, so text that needs no escaping
// comes out unchanged (and the no-markup fast path agrees with the parser path).
function escapeText(text: string): string {
  if (!TEXT_MARKUP.test(text)) return text;
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Written tags, made once: most elements have no attribute to keep. */
const BARE_START = new Map(
  RICH_TEXT_TAGS.map((tag) => [tag, VOID_TAGS.has(tag) ? `<${tag} />` : `<${tag}>`]),
);
const END = new Map(RICH_TEXT_TAGS.map((tag) => [tag, `</${tag}>`]));

/** Stands for "nothing written" where an element's written depth is kept. */
const NOT_WRITTEN = -1;

/**
 * Receives the events of `readHtml` for one value and writes its safe-listed HTML; `html()`
 * gives the result once the input has ended.
 *
 * One pass is enough for the output to be stable: the output's structure is tracked apart from
 * the input's, and a kept element is closed in the output wherever htmlparser2, reading the
 * output back, would close it (`<p><font><div>` writes `<p></p><div>`: with `font` gone, the
 * parser would end the paragraph at the div). Every written element is closed, innermost
 * first, so the output reads back as exactly the elements written.
 */
export class SafeListWriter implements HtmlHandler {
  private output = "";
  // Elements open in the input, innermost last (parallel arrays: nesting can be deep): the tag,
  // and where its written element sits in `writtenIds` (NOT_WRITTEN when removed or void).
  private readonly parsedTags: string[] = [];
  private readonly parsedDepths: number[] = [];
  private readonly parsedIds: number[] = [];
  // Elements open in the output, innermost last, each with an id that is never reused: an
  // element is still open while its id is at its depth.
  private readonly writtenTags: string[] = [];
  private readonly writtenIds: number[] = [];
  private nextId = 0;
  /** Elements open inside a script, style… (itself included): their content goes. */
  private droppedDepth = 0;

  /** The sanitized HTML written so far: all of it once `onend` has run. */
  html(): string {
    return this.output;
  }

  onopentag(tag: string, attributes: Readonly<Record<string, string>>): void {
    if (this.droppedDepth > 0) {
      this.droppedDepth++;
      return;
    }
    if (!KEPT_TAGS.has(tag)) {
      if (CONTENT_DROPPED_TAGS.has(tag)) this.droppedDepth = 1;
      else this.pushParsed(tag, NOT_WRITTEN, NOT_WRITTEN);
      return;
    }
    this.closeWrittenBy(tag);
    const kept = keptAttributes(tag, attributes);
    const isVoid = VOID_TAGS.has(tag);
    this.output +=
      kept === "" ? (BARE_START.get(tag) ?? "") : `<${tag}${kept}${isVoid ? " />" : ">"}`;
    if (isVoid) {
      this.pushParsed(tag, NOT_WRITTEN, NOT_WRITTEN);
      return;
    }
    const id = this.nextId++;
    this.pushParsed(tag, this.writtenIds.length, id);
    this.writtenTags.push(tag);
    this.writtenIds.push(id);
  }

  ontext(text: string): void {
    if (this.droppedDepth === 0) this.output += escapeText(text);
  }

  onclosetag(tag: string): void {
    if (this.droppedDepth > 0) {
      this.droppedDepth--;
      return;
    }
    // At the end of the input the parser also closes a tag cut off before its `>`, which never
    // opened here.
    if (this.parsedTags.at(-1) !== tag) return;
    this.parsedTags.pop();
    const depth = this.parsedDepths.pop() ?? NOT_WRITTEN;
    const id = this.parsedIds.pop();
    if (depth !== NOT_WRITTEN && this.writtenIds[depth] === id) this.closeWrittenFrom(depth);
  }

  onend(): void {
    this.closeWrittenFrom(0);
  }

  private pushParsed(tag: string, depth: number, id: number): void {
    this.parsedTags.push(tag);
    this.parsedDepths.push(depth);
    this.parsedIds.push(id);
  }

  /** Closes written elements that opening `tag` would close when the output is read back. */
  private closeWrittenBy(tag: string): void {
    let depth = this.writtenTags.length;
    while (depth > 0 && closesWhenOpening(tag, this.writtenTags[depth - 1] ?? "")) depth--;
    this.closeWrittenFrom(depth);
  }

  /** Closes the written elements at `depth` and inside it, innermost first. */
  private closeWrittenFrom(depth: number): void {
    while (this.writtenTags.length > depth) {
      this.output += END.get(this.writtenTags.pop() ?? "") ?? "";
      this.writtenIds.pop();
    }
  }
}
