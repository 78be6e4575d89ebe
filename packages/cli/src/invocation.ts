import type { RecordOwnerKind, UniqueScope } from "@tessera/fields";
import type { Framework } from "./new-project-frameworks.js";

/** The commands of `tessera`, as {@link Invocation.command} names them. */
export type CommandName =
  | "check"
  | "generate model"
  | "generate accounts"
  | "generate migration"
  | "generate webhook"
  | "generate job"
  | "generate client"
  | "migrate"
  | "admin grant"
  | "admin revoke"
  | "keys rotate"
  | "new"
  | "help";

/** What the command line asks for. */
export interface Invocation {
  readonly command: CommandName;
  /** The model name of `generate model`. */
  readonly model?: string | undefined;
  /** The migration name of `generate migration` (`add_views_to_posts`). */
  readonly migration?: string | undefined;
  /** The endpoint name of `generate webhook` (`orders` for `POST /webhooks/orders`). */
  readonly webhook?: string | undefined;
  /** The account address of `admin grant` and `admin revoke`, as written (normalized later). */
  readonly email?: string | undefined;
  /** The folder `new` creates the project in (`my-app`). */
  readonly directory?: string | undefined;
  /** `new` only: the web framework of the project (default Hono). */
  readonly framework?: Framework | undefined;
  /** The job name of `generate job` (`render`: table `render_jobs`, `RENDER_URL`). */
  readonly job?: string | undefined;
  /** `generate job`: how often its sweep runs (`10m`; default 5 minutes). */
  readonly sweepEvery?: string | undefined;
  /** `generate client`: the OpenAPI document's URL or file (default the local app's). */
  readonly from?: string | undefined;
  /** `generate client`: the file the types are written to (default `src/api-types.d.ts`). */
  readonly out?: string | undefined;
  /** `generate webhook`: the signature scheme (default the `X-Signature` header). */
  readonly scheme?: "standard" | "github" | "stripe" | undefined;
  readonly declarations: readonly string[];
  /** Print one JSON object instead of text. */
  readonly json: boolean;
  /** The app folder (default: the current directory). */
  readonly cwd?: string | undefined;
  /** Table name of `generate model` (default: the model name's plural). */
  readonly table?: string | undefined;
  /**
   * `generate model`: who owns the records. `user` (the default) is the `user_id` column;
   * `organization` (`--owner organization`) is `organization_id` and `created_by`; false
   * (`--no-owner`) is no owner column.
   */
  readonly owner: RecordOwnerKind | false;
  readonly graphql: boolean;
  /** No JSON API is generated: single attachments may be required. */
  readonly htmlOnly: boolean;
  /** `check` only: the fields are to be added to an existing table. */
  readonly existingTable: boolean;
  /** `generate model` only: where `^` values must be distinct (default `table`). */
  readonly uniqueScope: UniqueScope;
  /** The SQL the generators write (default: `postgres` when `DATABASE_URL` names PostgreSQL). */
  readonly dialect?: "sqlite" | "postgres" | undefined;
  /**
   * `migrate`, `admin` and `keys rotate`: the SQLite file or `postgres://` URL (default: the
   * app's settings); `new`: `sqlite` or `postgres`, the database the project uses (default
   * `sqlite`).
   */
  readonly database?: string | undefined;
  /** `migrate` only: list the migrations and where each stands, applying none. */
  readonly status: boolean;
  /** The generators: say what would be written, and write nothing. */
  readonly pretend: boolean;
  /**
   * The generators: add the packages the new code imports to package.json (at this CLI's
   * version for `@tessera/*` ones) instead of printing the install line; nothing is installed.
   */
  readonly install: boolean;
  /**
   * `generate model`: add the model's routes to src/app.ts of a `tessera new` project instead
   * of printing them; with no declarations, those of a model generated before.
   */
  readonly mount: boolean;
  /**
   * `generate migration add_<column>_to_<table>`: the value the rows already in the table get
   * for the required field added, as a form would send it (`--default draft`).
   */
  readonly defaultValue?: string | undefined;
  /**
   * Not read from the command line: the registry npm ran the CLI from when it is not npm's own
   * (`npm_config_registry`, see `installRegistry`), which `runCli` sets. Every install line
   * the command prints then ends with `--registry <url>`, and `new` writes it into the
   * project's `.npmrc`.
   */
  readonly registry?: string | undefined;
}

/** A command line that cannot be run, with advice. */
export interface UsageError {
  readonly ok: false;
  readonly reason: string;
  readonly hint: string;
  /** Whether `--json` was seen, so the error is printed the way the caller asked. */
  readonly json: boolean;
}
