import { sqlTokens } from "@tessera/sql";
import type { Invocation } from "./invocation.js";

/**
 * The longest name a table, column, index, model, job or webhook may have: PostgreSQL keeps the
 * first 63 bytes of a name (NAMEDATALEN - 1) and drops the rest without an error, so two
 * longer names could become one. Every such name is also a file name (`src/models/<name>.ts`),
 * well within the 255 bytes file systems allow.
 */
export const NAME_BYTES = 63;

/**
 * The longest migration name: it becomes `migrations/NNNN_<name>.sql`, and file systems (ext4,
 * APFS, NTFS…) take file names of at most 255 bytes; 200 leaves room for any number and `.sql`.
 * It is no SQL name itself (the table and columns inside it are, at most 63 bytes each).
 */
export const MIGRATION_NAME_BYTES = 200;

/** The longest declaration: far above the longest real one (an enum of many values). */
export const DECLARATION_BYTES = 4096;

/** A name that cannot be used, and what to write instead. */
export interface NameRefusal {
  readonly ok: false;
  readonly reason: string;
  readonly hint: string;
}

const SHORTER_NAME =
  "names become tables, columns, indexes and file names, and PostgreSQL keeps only the first 63 bytes of a name: choose a shorter one";

/** The length of `text` in UTF-8 bytes, as file systems and PostgreSQL count it. */
function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** `what` names the name: "model name `x`". */
function tooLong(what: string, name: string, limit: number, hint: string): NameRefusal {
  return {
    ok: false,
    reason: `${what} is too long (${utf8Bytes(name)} bytes; at most ${limit})`,
    hint,
  };
}

/**
 * The first name of the command line that is too long for what it becomes, checked before
 * anything reads or writes the app: the model, table, webhook, job and migration names, and in
 * each declaration its field name and the names after its type (a referenced model, a foreign
 * key column, enum values, polymorphic models). Characters are the generators' own check.
 */
export function refuseLongNames(invocation: Invocation): NameRefusal | undefined {
  const names: [string, string | undefined][] = [
    ["model name", invocation.model],
    ["table name", invocation.table],
    ["webhook name", invocation.webhook],
    ["job name", invocation.job],
  ];
  for (const [label, name] of names) {
    if (name !== undefined && utf8Bytes(name) > NAME_BYTES) {
      return tooLong(`${label} \`${name}\``, name, NAME_BYTES, SHORTER_NAME);
    }
  }
  const migration = invocation.migration;
  if (migration !== undefined && utf8Bytes(migration) > MIGRATION_NAME_BYTES) {
    return tooLong(
      `migration name \`${migration}\``,
      migration,
      MIGRATION_NAME_BYTES,
      "the name becomes the file `migrations/NNNN_<name>.sql`, and file systems take names of at most 255 bytes: choose a shorter one",
    );
  }
  for (const declaration of invocation.declarations) {
    const refused = refuseLongDeclaration(declaration);
    if (refused) return refused;
  }
  return undefined;
}

/**
 * A declaration whose field name or a name after its type is over {@link NAME_BYTES}, or that is
 * over {@link DECLARATION_BYTES} in all (many names, each short enough).
 */
function refuseLongDeclaration(declaration: string): NameRefusal | undefined {
  const [name = "", , ...args] = declaration.replace(/[?^]+$/, "").split(":");
  if (utf8Bytes(name) > NAME_BYTES) {
    return tooLong(`field name \`${name}\``, name, NAME_BYTES, SHORTER_NAME);
  }
  const long = args.flatMap((arg) => arg.split(",")).find((arg) => utf8Bytes(arg) > NAME_BYTES);
  if (long !== undefined) {
    return tooLong(
      `name \`${long}\` in the declaration of \`${name}\``,
      long,
      NAME_BYTES,
      SHORTER_NAME,
    );
  }
  if (utf8Bytes(declaration) > DECLARATION_BYTES) {
    return tooLong(
      `declaration \`${declaration}\``,
      declaration,
      DECLARATION_BYTES,
      "write one field as `name:type`, with its arguments after the type",
    );
  }
  return undefined;
}

/**
 * The first name in the SQL of the migration files about to be written that is longer than
 * {@link NAME_BYTES}: the names the generators make of others (`index_<table>_on_<column>`,
 * `<field>_content_type`, `<job>_jobs`) can pass the limit when the names they join each fit.
 * Read with PostgreSQL's rules, whose limit this is, whichever dialect the file is for.
 */
export function refuseLongSqlNames(
  files: ReadonlyArray<readonly [path: string, content: string]>,
): NameRefusal | undefined {
  for (const [path, content] of files) {
    if (!path.endsWith(".sql")) continue;
    for (const token of sqlTokens(content, "postgres")) {
      if (
        (token.kind === "word" || token.kind === "quoted") &&
        utf8Bytes(token.text) > NAME_BYTES
      ) {
        return tooLong(
          `name \`${token.text}\` in \`${path}\``,
          token.text,
          NAME_BYTES,
          "PostgreSQL keeps only the first 63 bytes of a table, column or index name, so longer names could become one: choose a shorter model, table, field or job name",
        );
      }
    }
  }
  return undefined;
}
