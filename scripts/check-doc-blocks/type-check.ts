import ts from "typescript";

/** A file that exists only in memory for the check. */
export interface VirtualFile {
  readonly fileName: string;
  readonly source: string;
}

/** A type error in a virtual file: its 1-based line in that file, and the message. */
export interface BlockError {
  readonly line: number;
  readonly message: string;
}

/**
 * The type errors of each virtual file, compiled together in ONE TypeScript program with the
 * repository's tsconfig.json (its `paths` resolve `@tessera/*` to the sources): a program
 * costs seconds of CPU, one per file would cost that many times over. Files are modules
 * (`moduleDetection: "force"`), so their top-level names never clash.
 */
export function typeErrorsOf(
  tsconfigPath: string,
  files: readonly VirtualFile[],
): Map<string, BlockError[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  )!;
  const sources = new Map(files.map((file) => [file.fileName, file.source]));
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => sources.get(name) ?? readFile(name);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => sources.has(name) || fileExists(name);
  const program = ts.createProgram([...sources.keys()], { ...config.options, noEmit: true }, host);
  return new Map(
    files.map((file) => {
      const sourceFile = program.getSourceFile(file.fileName)!;
      const diagnostics = [
        ...program.getSyntacticDiagnostics(sourceFile),
        ...program.getSemanticDiagnostics(sourceFile),
      ];
      return [
        file.fileName,
        diagnostics.map((diagnostic) => ({
          line: sourceFile.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1,
          message: ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
        })),
      ];
    }),
  );
}
