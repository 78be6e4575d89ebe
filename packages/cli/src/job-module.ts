import { camelize } from "@tessera/fields";
import { printedCall } from "./printed-call.js";
import { declaresRichText, SANITIZER_IMPORT, SANITIZER_OPTION } from "./rich-text-sanitizer.js";
import { renderTemplate } from "./template.js";

/**
 * `10m` → 600 000: a sweep period of seconds (`s`), minutes (`m`) or hours (`h`), from 10
 * seconds to a day; undefined for anything else.
 */
export function sweepPeriodMs(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,4})(s|m|h)$/.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[match[2] as "s" | "m" | "h"];
  return ms >= 10_000 && ms <= 86_400_000 ? ms : undefined;
}

/** The text of `src/jobs/<name>.ts`: the definition, its runner, routes and sweep schedule. */
export function jobModule(
  name: string,
  declarations: readonly string[],
  sweepMs: number,
  sweepText: string,
  command: string,
): string {
  const camel = camelize(name);
  const richText = declaresRichText(declarations);
  return renderTemplate("job.ts", {
    command,
    name,
    prefix: name.toUpperCase(),
    camel,
    Pascal: `${camel.charAt(0).toUpperCase()}${camel.slice(1)}`,
    sanitizerImport: richText ? SANITIZER_IMPORT : "",
    sweepText,
    sweepMs: sweepMs.toLocaleString("en").replaceAll(",", "_"),
    definition: printedCall(
      "defineJob",
      [
        JSON.stringify(name),
        { array: declarations.map((declaration) => JSON.stringify(declaration)) },
        ...(richText ? [{ object: [SANITIZER_OPTION] }] : []),
      ],
      { head: `export const ${camel}Job = `, tail: ";" },
    ).join("\n"),
  });
}
