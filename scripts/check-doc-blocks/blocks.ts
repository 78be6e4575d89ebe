import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A ```ts block of a Markdown file: its code and the file line its first code line is on. */
export interface CodeBlock {
  readonly code: string;
  readonly line: number;
}

/** A documented program the type check compiles: where it is written and where it compiles. */
export interface DocProgram {
  /** The file it is in, relative to the repository: `packages/fields/README.md`. */
  readonly document: string;
  readonly block: CodeBlock;
  /**
   * The file the block compiles as (it is never written): its folder decides how imports
   * resolve, so a guide's program sees its example's dependencies.
   */
  readonly virtualFile: string;
}

/** The guides whose first block is the whole program of an example: guide → example folder. */
export const GUIDE_EXAMPLES: Readonly<Record<string, string>> = {
  "express.md": "express",
  "fastify.md": "fastify",
  "hono.md": "hono",
};

const FIRST_TS_BLOCK = /^```ts\n([\s\S]*?)^```$/m;

/** The first ```ts block of `markdown`, or undefined when it has none. */
export function firstTsBlock(markdown: string): CodeBlock | undefined {
  const match = FIRST_TS_BLOCK.exec(markdown);
  if (!match) return undefined;
  // The code starts on the line after the fence: count the newlines before it, plus one.
  const line = markdown.slice(0, match.index).split("\n").length + 1;
  return { code: match[1]!, line };
}

const EXAMPLE_START = /^\s*\* @example\s*\n\s*\* ```ts\n/gm;
const EXAMPLE_END = /^\s*\* ```$/m;

/**
 * The ```ts blocks under `@example` tags of a source file's TSDoc, without the comment's
 * leading `* `, each with the file line its code starts on.
 */
export function tsdocExamples(source: string): CodeBlock[] {
  return [...source.matchAll(EXAMPLE_START)].map((start) => {
    const from = start.index + start[0].length;
    const end = EXAMPLE_END.exec(source.slice(from));
    if (!end) throw new Error(`an @example block at offset ${start.index} is not closed`);
    const code = source
      .slice(from, from + end.index)
      .split("\n")
      .map((line) => line.replace(/^\s*\*( |$)/, ""))
      .join("\n");
    return { code, line: source.slice(0, from).split("\n").length };
  });
}

/**
 * Every program the docs promise compiles: the first ```ts block of each package README
 * (README blocks compile as files of the repository root, where every package and its
 * dependencies resolve), of each guide in {@link GUIDE_EXAMPLES} (as a file of its example),
 * and every `@example` of the packages' sources (the API reference shows them). A package README
 * without a ```ts block is an error: its first block is its usage.
 */
export function docPrograms(root: string): DocProgram[] {
  const packagesDir = join(root, "packages");
  const readmes = readdirSync(packagesDir)
    .filter((name) => existsSync(join(packagesDir, name, "README.md")))
    .sort()
    .map((name) => ({
      document: `packages/${name}/README.md`,
      virtualFile: join(root, `readme-${name}.ts`),
    }));
  const guides = Object.entries(GUIDE_EXAMPLES).map(([guide, example]) => ({
    document: `docs/guides/${guide}`,
    virtualFile: join(root, "examples", example, "src", "guide-program.ts"),
  }));
  const documents = [...readmes, ...guides].map(({ document, virtualFile }) => {
    const block = firstTsBlock(readFileSync(join(root, document), "utf8"));
    if (!block) throw new Error(`${document} has no \`\`\`ts block`);
    return { document, block, virtualFile };
  });
  return [...documents, ...sourceExamples(root)];
}

function sourceExamples(root: string): DocProgram[] {
  const sources = readdirSync(join(root, "packages"), { recursive: true, encoding: "utf8" })
    .filter((file) => /^[^/]+\/src\/.*\.ts$/.test(file))
    .sort();
  return sources.flatMap((file) =>
    tsdocExamples(readFileSync(join(root, "packages", file), "utf8")).map((block) => ({
      document: `packages/${file}`,
      block,
      virtualFile: join(
        root,
        `example-${file.replaceAll("/", "-").replace(/\.ts$/, "")}-${block.line}.ts`,
      ),
    })),
  );
}
