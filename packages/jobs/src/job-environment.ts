/** A job's service settings as read from the environment. */
export interface JobEnvironment {
  /** `<JOB>_URL`. */
  readonly url: string;
  /** `<JOB>_SECRET`. */
  readonly secret: string;
  /** `<JOB>_TOKEN`, when set and not empty. */
  readonly bearerToken?: string | undefined;
}

/**
 * Reads `<JOB>_URL`, `<JOB>_SECRET` and the optional `<JOB>_TOKEN` (`RENDER_URL` for job
 * `render`), ready to spread into `createJobRunner`'s options.
 * @throws {Error} naming the variable when `<JOB>_URL` or `<JOB>_SECRET` is missing or empty.
 */
export function readJobEnvironment(
  jobName: string,
  environment: Readonly<Record<string, string | undefined>>,
): JobEnvironment {
  const prefix = jobName.toUpperCase();
  const required = (name: string): string => {
    const value = environment[name];
    if (!value) throw new Error(`${name} is not set: job ${jobName} needs it`);
    return value;
  };
  const url = required(`${prefix}_URL`);
  const secret = required(`${prefix}_SECRET`);
  const bearerToken = environment[`${prefix}_TOKEN`];
  return bearerToken ? { url, secret, bearerToken } : { url, secret };
}
