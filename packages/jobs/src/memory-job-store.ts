import type { JobDefinition, JobInput } from "./job-definition.js";
import type { JobRecord, JobStore, NewJob, RetryClaim } from "./job-store.js";
import type { JobState } from "./state-machine.js";

/**
 * A {@link JobStore} in a `Map`, for tests and single-process apps that may lose their jobs on
 * restart. No method awaits inside, so each is atomic within one JavaScript process.
 */
export class MemoryJobStore<I extends JobInput = JobInput> implements JobStore<I> {
  readonly #jobs = new Map<number, JobRecord<I>>();
  #lastId = 0;

  readonly #inputNames: readonly string[];

  /** Like the SQLite store, keeps only the definition's input columns of what it is given. */
  constructor(definition: JobDefinition<I>) {
    this.#inputNames = Object.keys(definition.inputs);
  }

  async create(job: NewJob<I>): Promise<JobRecord<I>> {
    const record: JobRecord<I> = {
      id: ++this.#lastId,
      userId: job.userId,
      input: Object.fromEntries(
        this.#inputNames.map((name) => [name, job.input[name] ?? null]),
      ) as I,
      status: "queued",
      progress: 0,
      externalId: null,
      result: null,
      error: null,
      attempts: 1,
      lastAttemptAt: job.now,
      createdAt: job.now,
      updatedAt: job.now,
    };
    this.#jobs.set(record.id, record);
    return record;
  }

  async find(id: number): Promise<JobRecord<I> | undefined> {
    return this.#jobs.get(id);
  }

  async findOwned(id: number, userId: number): Promise<JobRecord<I> | undefined> {
    const job = this.#jobs.get(id);
    return job?.userId === userId ? job : undefined;
  }

  async listOwned(
    userId: number,
    page: { readonly limit: number; readonly offset: number },
  ): Promise<JobRecord<I>[]> {
    return [...this.#jobs.values()]
      .filter((job) => job.userId === userId)
      .reverse()
      .slice(page.offset, page.offset + page.limit);
  }

  async update(
    expected: JobRecord<I>,
    next: JobState,
    now: number,
  ): Promise<JobRecord<I> | undefined> {
    const job = this.#jobs.get(expected.id);
    if (
      job?.status !== expected.status ||
      job.progress !== expected.progress ||
      job.updatedAt !== expected.updatedAt
    ) {
      return undefined;
    }
    const { status, progress, externalId, result, error } = next;
    return this.#put({ ...job, status, progress, externalId, result, error, updatedAt: now });
  }

  async claimRetries(claim: RetryClaim): Promise<JobRecord<I>[]> {
    return [...this.#jobs.values()]
      .filter(
        (job) =>
          job.status === "queued" &&
          job.attempts < claim.maxAttempts &&
          job.lastAttemptAt < claim.lastAttemptBefore,
      )
      .sort((a, b) => a.lastAttemptAt - b.lastAttemptAt || a.id - b.id)
      .slice(0, claim.limit)
      .map((job) =>
        this.#put({
          ...job,
          attempts: job.attempts + 1,
          lastAttemptAt: claim.now,
          updatedAt: claim.now,
        }),
      );
  }

  async listExhausted(query: {
    readonly maxAttempts: number;
    readonly lastAttemptBefore: number;
    readonly limit: number;
  }): Promise<JobRecord<I>[]> {
    return [...this.#jobs.values()]
      .filter(
        (job) =>
          job.status === "queued" &&
          job.attempts >= query.maxAttempts &&
          job.lastAttemptAt < query.lastAttemptBefore,
      )
      .slice(0, query.limit);
  }

  async listStale(query: {
    readonly updatedBefore: number;
    readonly limit: number;
  }): Promise<JobRecord<I>[]> {
    return [...this.#jobs.values()]
      .filter(
        (job) =>
          (job.status === "submitted" || job.status === "running") &&
          job.updatedAt < query.updatedBefore,
      )
      .slice(0, query.limit);
  }

  #put(job: JobRecord<I>): JobRecord<I> {
    this.#jobs.set(job.id, job);
    return job;
  }
}
