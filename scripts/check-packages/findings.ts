/** The checks run on each package; a finding names one, and so does a known exception. */
export type CheckName =
  | "install"
  | "strict-layout"
  | "install-contents"
  | "import-esm"
  | "import-cjs"
  | "esm-cjs-exports"
  | "main-entry-node-import"
  | "main-entry-environment-read"
  | "bin"
  | "undeclared-import"
  | "unused-dependency"
  | "import-cycle"
  | "sibling-copy"
  | "license"
  | "publint"
  | "attw";

/** One failed check of one package, with what was seen. */
export interface Finding {
  readonly packageName: string;
  readonly check: CheckName;
  readonly detail: string;
}
