import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
} from "@microsoft/api-extractor";
import type { ReportedEntry } from "./report-files.js";

/** What one entry's extraction found: its report, or the compiler errors that stopped it. */
export type ReportOutcome =
  | { readonly ok: true; readonly report: string }
  | { readonly ok: false; readonly errors: readonly string[] };

// Lines API Extractor writes that say nothing of the surface here: we use no release tags,
// whether a member is documented is `npm run docs`' business, and so is the package comment.
const NOISE =
  /^\s*\/\/ (@public|@public \(undocumented\)|\(undocumented\)|\(No @packageDocumentation comment for this package\))\n(\s*\/\/\n)?/gm;

// The declarations are already checked by `tsc` and documented under `npm run docs`; the report
// is only the surface, so API Extractor's own advice (release tags, forgotten exports of types
// another entry exports, undocumented members) stays out of it.
const QUIET = { logLevel: ExtractorLogLevel.None, addToApiReportFile: false };

/**
 * The API report of `entry`, extracted from its built declarations by API Extractor (which
 * writes it under `temporaryFolder`, leaving any checked-in report alone), without the lines
 * that say nothing of the surface.
 */
export function extractReport(entry: ReportedEntry, temporaryFolder: string): ReportOutcome {
  const errors: string[] = [];
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: entry.packageFolder,
      mainEntryPointFilePath: entry.declarationFile,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: "es2022",
            module: "esnext",
            moduleResolution: "bundler",
            lib: ["es2023", "dom", "dom.iterable"],
            types: ["node"],
            skipLibCheck: true,
            strict: true,
          },
        },
      },
      apiReport: {
        enabled: true,
        reportFolder: entry.reportFolder,
        reportTempFolder: join(temporaryFolder, entry.reportName),
        reportFileName: entry.reportName,
        // A type an export uses that no entry exports is still the surface: its change shows.
        includeForgottenExports: true,
      },
      newlineKind: "lf",
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
        extractorMessageReporting: { default: QUIET },
        tsdocMessageReporting: { default: QUIET },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(entry.packageFolder, "package.json"),
  });
  try {
    Extractor.invoke(config, {
      localBuild: false,
      messageCallback(message: ExtractorMessage) {
        if (message.logLevel === ExtractorLogLevel.Error)
          errors.push(message.formatMessageWithLocation(entry.packageFolder));
        // Everything else (the "report changed" notice, the TypeScript version) is ours to say.
        message.handled = true;
      },
    });
  } catch (error) {
    // API Extractor stops on some declarations that do not compile instead of reporting them.
    errors.push(error instanceof Error ? error.message : String(error));
  }
  if (errors.length > 0) return { ok: false, errors };
  const written = join(temporaryFolder, entry.reportName, `${entry.reportName}.api.md`);
  return { ok: true, report: readFileSync(written, "utf8").replace(NOISE, "") };
}
