import { readFileSync } from "node:fs";

/** What a framework guide tells a reader to do: the install commands and the program. */
export interface GuideSteps {
  /** Each `npm install …` line of its ```sh blocks, as arguments after `npm`. */
  readonly installs: readonly (readonly string[])[];
  /** Its first ```ts block: the whole program. */
  readonly program: string;
  /** The first ```ts block of its "On Bun" section: the program for Bun, if it has one. */
  readonly bunProgram?: string;
}

/** Reads a guide's steps from its Markdown. */
export function guideSteps(markdown: string): GuideSteps {
  const installs = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1]!.split("\n"))
    .map((line) => line.trim())
    .filter((line) => line.startsWith("npm install "))
    .map((line) => line.split(/\s+/).slice(1));
  const program = /```ts\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (installs.length === 0) throw new Error("the guide has no npm install line");
  if (!program) throw new Error("the guide has no ts block");
  const onBun = markdown.split(/^## On Bun$/m)[1];
  const bunProgram = onBun === undefined ? undefined : /```ts\n([\s\S]*?)```/.exec(onBun)?.[1];
  return { installs, program, ...(bunProgram === undefined ? {} : { bunProgram }) };
}

/** Reads the guide at `path`; see {@link guideSteps}. */
export function readGuide(path: string): GuideSteps {
  return guideSteps(readFileSync(path, "utf8"));
}
