/** Biome's (and Prettier's) line width in this project's settings. */
const LINE_WIDTH = 100;

/** One argument of {@link printedCall}: text printed as is, an array or an object literal. */
export type PrintedArgument =
  | string
  | { readonly array: readonly string[] }
  | { readonly object: readonly string[] };

const inline = (arg: PrintedArgument): string =>
  typeof arg === "string"
    ? arg
    : "array" in arg
      ? `[${arg.array.join(", ")}]`
      : `{ ${arg.object.join(", ")} }`;

/** An array or object argument over several lines: its elements one a line, each with a comma. */
function expanded(arg: Exclude<PrintedArgument, string>, indent: string, after: string): string[] {
  const [open, close, items] = "array" in arg ? ["[", "]", arg.array] : ["{", "}", arg.object];
  return [open, ...items.map((item) => `${indent}  ${item},`), `${indent}${close}${after}`];
}

/**
 * A call as Biome prints it, so generated files pass `biome check` untouched: on one line when
 * it fits; else with its last argument (an array or object) opened on the first line when the
 * others fit there ("hugged"); else one argument a line, each array or object on one line when
 * that fits. `head` goes before the call (`export const x = `), `tail` after it (`;`).
 */
export function printedCall(
  callee: string,
  args: readonly PrintedArgument[],
  options: {
    readonly indent?: string | undefined;
    readonly head?: string | undefined;
    readonly tail?: string | undefined;
  } = {},
): string[] {
  const { indent = "", head = "", tail = "" } = options;
  const start = `${indent}${head}${callee}(`;
  const oneLine = `${start}${args.map(inline).join(", ")})${tail}`;
  if (oneLine.length <= LINE_WIDTH) return [oneLine];
  const last = args.at(-1);
  if (last !== undefined && typeof last !== "string") {
    const before = args.slice(0, -1).map(inline);
    const [open = "", ...rest] = expanded(last, indent, `)${tail}`);
    const first = `${start}${[...before, ""].join(", ")}${open}`;
    if (first.length <= LINE_WIDTH) return [first, ...rest];
  }
  const inner = `${indent}  `;
  const lines = [start];
  for (const arg of args) {
    const line = `${inner}${inline(arg)},`;
    if (typeof arg === "string" || line.length <= LINE_WIDTH) lines.push(line);
    else {
      const [open = "", ...rest] = expanded(arg, inner, ",");
      lines.push(`${inner}${open}`, ...rest);
    }
  }
  lines.push(`${indent})${tail}`);
  return lines;
}
