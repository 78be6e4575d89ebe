// The only use of htmlparser2: the `Tokenizer` class and its `TokenizerCallbacks` type, both
// exported from the package's main entry (not a deep import). Its callbacks report offsets into
// the input rather than strings, a protocol the README does not document and that changed in
// majors before, so the version is pinned exactly in package.json and test/html-reader.test.ts
// checks this reader against the same version's public `Parser`. The Parser itself is not used:
// see TreeReader below (versions 10 and 12 are still quadratic there: `unshift` per open tag,
// `indexOf` over the whole stack per closing tag).
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import {
  closesWhenOpening,
  FOREIGN_ELEMENTS,
  INTEGRATION_ELEMENTS,
  VOID_ELEMENTS,
} from "./html-tree-rules.js";

/** What {@link readHtml} reports: the events of htmlparser2's Parser, by the same names. */
export interface HtmlHandler {
  /** A start tag: names lowercased, values decoded, the first of a repeated attribute. */
  onopentag(name: string, attributes: Readonly<Record<string, string>>): void;
  /** Text, entities decoded: all the text between two tags, in one piece. */
  ontext(text: string): void;
  /** An element ends, innermost first; also for a tag cut off at the end, never opened. */
  onclosetag(name: string): void;
  /** The input ended; every open element has been closed. */
  onend(): void;
}

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

// Why not htmlparser2's Parser itself: it finds the element a closing tag ends by scanning its
// whole stack of open elements, so markup nested 100,000 deep followed by as many unmatched
// closing tags took it a minute. This reads the same events from the same tokenizer and tree
// rules, counting open elements by tag so that an unmatched closing tag costs nothing; it also
// reports text between two tags in one piece (the Parser reports `a&amp;b` as three), which
// makes text-heavy markup cheaper to escape.
class TreeReader implements TokenizerCallbacks {
  /** Events that start at or after this index pause the tokenizer (see {@link HtmlReading}). */
  pauseAt = Number.POSITIVE_INFINITY;
  paused = false;
  /** The tokenizer has reported the end of the input; open elements may remain to close. */
  tokenized = false;
  private readonly open: string[] = [];
  private readonly openByTag = new Map<string, number>();
  /** One entry per open foreign or integration element: true inside svg and math. */
  private readonly foreign: boolean[] = [];
  /** Tag names as written → lowercased, so each element does not keep its own copy. */
  private readonly names = new Map<string, string>();
  private tag = "";
  private attributes = NO_ATTRIBUTES;
  private attributeName = "";
  private attributeValue = "";
  /** Text read and not yet reported: decoded pieces, then a range of the input still to copy. */
  private text = "";
  private textStart = -1;
  private textEnd = -1;

  constructor(
    private readonly html: string,
    private readonly handler: HtmlHandler,
    private readonly pause: () => void,
  ) {}

  ontext(start: number, end: number): void {
    this.pauseFrom(end);
    if (start < 0) {
      // The tokenizer reports the rest of a tag cut off at the end as text from -1, which the
      // Parser slices as `slice(-1, end)`: the last character. Read it the same way.
      this.copyText();
      this.text += this.html.slice(start, end);
    } else if (start === this.textEnd) {
      this.textEnd = end;
    } else {
      this.copyText();
      this.textStart = start;
      this.textEnd = end;
    }
  }

  ontextentity(codePoint: number): void {
    this.copyText();
    this.text += String.fromCodePoint(codePoint);
  }

  onopentagname(start: number, end: number): void {
    this.pauseFrom(end);
    this.reportText();
    this.openTag(this.name(start, end));
  }

  onattribname(start: number, end: number): void {
    this.attributeName = this.name(start, end);
  }

  onattribdata(start: number, end: number): void {
    this.attributeValue += this.html.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    this.attributeValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    if (this.attributes === NO_ATTRIBUTES) this.attributes = {};
    if (!Object.hasOwn(this.attributes, this.attributeName)) {
      (this.attributes as Record<string, string>)[this.attributeName] = this.attributeValue;
    }
    this.attributeValue = "";
  }

  onopentagend(): void {
    this.endOpenTag();
  }

  onselfclosingtag(): void {
    // `<x/>` closes x only in foreign content; elsewhere the slash is ignored.
    const tag = this.tag;
    this.endOpenTag();
    if (this.foreign.at(-1) && this.open.at(-1) === tag) this.closeInnermost();
  }

  onclosetag(start: number, end: number): void {
    this.pauseFrom(end);
    this.reportText();
    const tag = this.name(start, end);
    if (FOREIGN_ELEMENTS.has(tag) || INTEGRATION_ELEMENTS.has(tag)) this.foreign.pop();
    if (VOID_ELEMENTS.has(tag)) {
      // `</br>` is a line break; other void closing tags are ignored.
      if (tag === "br") {
        this.handler.onopentag("br", NO_ATTRIBUTES);
        this.handler.onclosetag("br");
      }
    } else if ((this.openByTag.get(tag) ?? 0) > 0) {
      let closed: string | undefined;
      do closed = this.closeInnermost();
      while (closed !== tag);
    } else if (tag === "p") {
      // `</p>` with no paragraph open is an empty paragraph.
      this.openTag("p");
      this.endOpenTag();
      this.closeInnermost();
    }
  }

  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  onend(): void {
    this.reportText();
    this.tokenized = true;
  }

  /** Closes up to `count` of the elements left open at the end; true once all are closed. */
  closeLeftOpen(count: number): boolean {
    for (let closed = 0; closed < count && this.open.length > 0; closed++) this.closeInnermost();
    if (this.open.length > 0) return false;
    this.handler.onend();
    return true;
  }

  private pauseFrom(index: number): void {
    if (index < this.pauseAt || this.paused) return;
    this.paused = true;
    this.pause();
  }

  private name(start: number, end: number): string {
    const written = this.html.slice(start, end);
    let name = this.names.get(written);
    if (name === undefined) {
      name = written.toLowerCase();
      this.names.set(written, name);
    }
    return name;
  }

  private copyText(): void {
    if (this.textStart === -1) return;
    this.text += this.html.slice(this.textStart, this.textEnd);
    this.textStart = -1;
    this.textEnd = -1;
  }

  private reportText(): void {
    this.copyText();
    if (this.text === "") return;
    this.handler.ontext(this.text);
    this.text = "";
  }

  private openTag(tag: string): void {
    while (this.open.length > 0 && closesWhenOpening(tag, this.open.at(-1) ?? "")) {
      this.closeInnermost();
    }
    if (!VOID_ELEMENTS.has(tag)) {
      this.open.push(tag);
      this.openByTag.set(tag, (this.openByTag.get(tag) ?? 0) + 1);
      if (FOREIGN_ELEMENTS.has(tag)) this.foreign.push(true);
      else if (INTEGRATION_ELEMENTS.has(tag)) this.foreign.push(false);
    }
    this.tag = tag;
    this.attributes = NO_ATTRIBUTES;
  }

  private endOpenTag(): void {
    this.handler.onopentag(this.tag, this.attributes);
    if (VOID_ELEMENTS.has(this.tag)) this.handler.onclosetag(this.tag);
    this.tag = "";
  }

  private closeInnermost(): string | undefined {
    const tag = this.open.pop();
    if (tag === undefined) return undefined;
    this.openByTag.set(tag, (this.openByTag.get(tag) ?? 1) - 1);
    this.handler.onclosetag(tag);
    return tag;
  }
}

/**
 * Reads one HTML string a slice at a time, reporting the events of {@link readHtml}, so that a
 * caller can yield to the event loop between slices. The whole string is written to the
 * tokenizer at once and paused and resumed there (htmlparser2's own mechanism for streams), so
 * slicing never changes how the input is read.
 */
export class HtmlReading {
  private readonly reader: TreeReader;
  private readonly tokenizer: Tokenizer;
  private written = false;

  constructor(
    private readonly html: string,
    handler: HtmlHandler,
  ) {
    this.reader = new TreeReader(html, handler, () => this.tokenizer.pause());
    this.tokenizer = new Tokenizer({ decodeEntities: true }, this.reader);
  }

  /**
   * Reads about `characters` more of the input, then closes up to a quarter as many elements
   * left open at its end; true once the input has ended and `onend` was reported.
   */
  advance(characters: number): boolean {
    const reader = this.reader;
    if (!reader.tokenized) {
      reader.pauseAt = this.tokenizer.getIndex() + characters;
      reader.paused = false;
      if (this.written) this.tokenizer.resume();
      else {
        this.written = true;
        this.tokenizer.write(this.html);
      }
      if (reader.paused) return false;
      this.tokenizer.end();
    }
    return reader.closeLeftOpen(Math.ceil(characters / 4));
  }
}

/**
 * Reads HTML with htmlparser2's tokenizer and reports the events htmlparser2's Parser would
 * (HTML mode, entities decoded), in time linear in the input however deeply it nests.
 */
export function readHtml(html: string, handler: HtmlHandler): void {
  new HtmlReading(html, handler).advance(Number.POSITIVE_INFINITY);
}
