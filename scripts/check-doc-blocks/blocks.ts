import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A ```ts block of a Markdown file: its code and the file line its first code line is on. */
export interface CodeBlock {
  readonly code: string;
  readonly line: number;
}

/** A documented program the type check compiles: where it is written and where it compiles. */
export interface DocProgram {
  /** The Markdown file, relative to the repository: `packages/fields/README.md`. */
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

/**
 * Every program the docs promise compiles: the first ```ts block of each package README
 * (README blocks compile as files of the repository root, where every package and its
 * dependencies resolve) and of each guide in {@link GUIDE_EXAMPLES} (as a file of its example).
 * A package README without a ```ts block is an error: its first block is its usage.
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
  return [...readmes, ...guides].map(({ document, virtualFile }) => {
    const block = firstTsBlock(readFileSync(join(root, document), "utf8"));
    if (!block) throw new Error(`${document} has no \`\`\`ts block`);
    return { document, block, virtualFile };
  });
}
