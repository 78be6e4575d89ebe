/** The runtimes every package is tried on. */
export const RUNTIMES = ["node-esm", "node-cjs", "bun", "deno", "workerd"] as const;

/** One of {@link RUNTIMES}: Node's `import`, Node's `require`, Bun, Deno or workerd. */
export type Runtime = (typeof RUNTIMES)[number];

/** What a smoke gets from the runtime it runs on. */
export interface SmokeContext {
  readonly runtime: Runtime;
  /**
   * The module a user would get for `specifier` on this runtime: `import()` on ESM runtimes,
   * `require()` on Node CJS, the bundled module on workerd.
   */
  load<Module>(specifier: string): Promise<Module>;
  /** Throws `what` unless `condition` holds. */
  check(condition: boolean, what: string): void;
  /** The Worker's bindings on workerd (`DB` a D1 database, `FILES` an R2 bucket, `LIMITER` a rate limiter); empty elsewhere. */
  readonly bindings: Readonly<Record<string, unknown>>;
}

/** Why a package does not run on a runtime, shown in the matrix instead of a result. */
export interface NotForRuntime {
  readonly notFor: string;
}

/**
 * One package's smoke: a real operation through its public entries, as a user on each runtime
 * would import them. Each package keeps its own in `test/runtime.smoke.ts`.
 */
export interface RuntimeSmoke {
  /** What it does, for the matrix: "hash and verify a password". */
  readonly does: string;
  /** The specifiers `run` loads on `runtime`, or why the package is not for that runtime. */
  imports(runtime: Runtime): readonly string[] | NotForRuntime;
  /** Deno permission flags beyond reading the project, each with the reason it is needed. */
  readonly denoPermissions?: readonly { readonly flag: string; readonly why: string }[];
  run(context: SmokeContext): Promise<void>;
}
