import type { ListPage } from "@tessera/http";
import type { JobDefinition } from "./job-definition.js";
import { inputFromColumns, inputToColumns } from "./job-input.js";
import type { JobRecord, JobStore, NewJob, RetryClaim } from "./job-store.js";
import type { JobState } from "./state-machine.js";

/**
 * A {@link JobStore} in a `Map`, for tests and single-process apps that may lose their jobs on
 * restart. No method awaits inside, so each is atomic within one JavaScript process.
 */
export class MemoryJobStore implements JobStore {
  readonly #jobs = new Map<number, JobRecord>();
  #lastId = 0;

  readonly #definition: JobDefinition;

  /** Keeps inputs as a database would: through their columns, the definition's inputs only. */
  constructor(definition: JobDefinition) {
    this.#definition = definition;
  }

  async create(job: NewJob): Promise<JobRecord> {
    const record: JobRecord = {
      id: ++this.#lastId,
      userId: job.userId,
      input: inputFromColumns(this.#definition, inputToColumns(this.#definition, job.input)),
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

  async find(id: number): Promise<JobRecord | undefined> {
    return this.#jobs.get(id);
  }

  async findOwned(userId: number, id: number): Promise<JobRecord | undefined> {
    const job = this.#jobs.get(id);
    return job?.userId === userId ? job : undefined;
  }

  async listOwned(userId: number, page: ListPage): Promise<JobRecord[]> {
    return [...this.#jobs.values()]
      .filter((job) => job.userId === userId && (page.after === undefined || job.id < page.after))
      .reverse()
      .slice(page.offset, page.offset + page.limit);
  }

  async update(expected: JobRecord, next: JobState, now: number): Promise<JobRecord | undefined> {
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

  async claimRetries(claim: RetryClaim): Promise<JobRecord[]> {
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
  }): Promise<JobRecord[]> {
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
  }): Promise<JobRecord[]> {
    return [...this.#jobs.values()]
      .filter(
        (job) =>
          (job.status === "submitted" || job.status === "running") &&
          job.updatedAt < query.updatedBefore,
      )
      .slice(0, query.limit);
  }

  #put(job: JobRecord): JobRecord {
    this.#jobs.set(job.id, job);
    return job;
  }
}
