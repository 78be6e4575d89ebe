import { decodeJobInput, type JobInputResult } from "./job-input.js";

/** One input column of a job: its SQL type, whether it may be null, and an optional rule. */
export type JobInputColumn =
  | {
      readonly type: "TEXT";
      /** Null allowed; a missing, null or blank value is stored as null. */
      readonly optional?: boolean;
      /** Runs on a present value after the type check; a returned message is a 422. */
      readonly validate?: (value: string) => string | undefined;
    }
  | {
      readonly type: "INTEGER" | "REAL";
      readonly optional?: boolean;
      readonly validate?: (value: number) => string | undefined;
    };

/** The input columns of a job, by name, in table order. */
export type JobInputColumns = Readonly<Record<string, JobInputColumn>>;

type ColumnValue<C extends JobInputColumn> = C["type"] extends "TEXT" ? string : number;

/** The input object of a job with columns `C`: optional columns may be null. */
export type JobInputOf<C extends JobInputColumns> = {
  readonly [K in keyof C]: C[K] extends { readonly optional: true }
    ? ColumnValue<C[K]> | null
    : ColumnValue<C[K]>;
};

/** Any job's input: column name to value. */
export type JobInput = Readonly<Record<string, string | number | null>>;

/** A kind of external job: its name, its table and its typed inputs. Made by {@link defineJob}. */
export interface JobDefinition<I extends JobInput = JobInput> {
  /** snake_case; names the table (`<name>_jobs`), the callback path and `<NAME>_URL`. */
  readonly name: string;
  /** `<name>_jobs`. */
  readonly table: string;
  readonly inputs: JobInputColumns;
  /**
   * Reads a JSON body (already parsed) into the input: wrong JSON types and missing required
   * keys are a 400, broken rules a 422 listing every field. Never throws.
   */
  decodeInput(body: unknown): JobInputResult<I>;
}

const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;

/** Columns of every job table: an input cannot take their names. */
export const JOB_TABLE_COLUMNS: readonly string[] = [
  "id",
  "user_id",
  "status",
  "external_id",
  "progress",
  "result",
  "error",
  "attempts",
  "token",
  "last_attempt_at",
  "created_at",
  "updated_at",
];

/**
 * Declares a job: `defineJob("render", { prompt: { type: "TEXT" }, width: { type: "INTEGER",
 * optional: true } })`. The input type follows from the columns.
 * @throws {RangeError} for a name or column that is not snake_case, or a column named like one
 * of {@link JOB_TABLE_COLUMNS}: a programmer error, caught at start-up.
 */
export function defineJob<const C extends JobInputColumns>(
  name: string,
  inputs: C,
): JobDefinition<JobInputOf<C>> {
  if (!SNAKE_CASE.test(name)) throw new RangeError(`invalid job name ${name}`);
  for (const column of Object.keys(inputs)) {
    if (!SNAKE_CASE.test(column)) throw new RangeError(`invalid input name ${column}`);
    if (JOB_TABLE_COLUMNS.includes(column)) {
      throw new RangeError(`input name ${column} is a column of every job table`);
    }
  }
  const definition: JobDefinition<JobInputOf<C>> = {
    name,
    table: `${name}_jobs`,
    inputs,
    decodeInput: (body) => decodeJobInput<JobInputOf<C>>(inputs, body),
  };
  return Object.freeze(definition);
}
