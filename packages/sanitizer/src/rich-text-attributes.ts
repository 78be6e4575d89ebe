import { escapeHtml } from "@tessera/core";
import { IMAGE_SCHEMES, isKeptUrl, LINK_SCHEMES } from "./rich-text-url.js";

/** Whether the safe list keeps attribute `name`, valued `value`, on the kept tag `tag`. */
function keeps(tag: string, name: string, value: string): boolean {
  switch (name) {
    case "title":
      return value !== "";
    // An empty alt is meaningful: the image is decoration.
    case "alt":
      return tag === "img";
    case "href":
      return tag === "a" && value !== "" && isKeptUrl(value, LINK_SCHEMES);
    case "src":
      return tag === "img" && value !== "" && isKeptUrl(value, IMAGE_SCHEMES);
    default:
      return false;
  }
}

/**
 * The attributes of a kept tag that the safe list keeps, written ` name="value"` in the order
 * the parser gave them, values escaped. `attributes` must hold decoded values, as htmlparser2
 * gives them, so the URL checks see what a browser would.
 */
export function keptAttributes(tag: string, attributes: Readonly<Record<string, string>>): string {
  let written = "";
  for (const name of Object.keys(attributes)) {
    const value = attributes[name] ?? "";
    if (keeps(tag, name, value)) written += ` ${name}="${escapeHtml(value)}"`;
  }
  return written;
}
