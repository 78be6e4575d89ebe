/**
 * For driver authors: runs `work` inside `SAVEPOINT tessera_<depth>` on the connection
 * `execute` runs statements on, released when `work` resolves and rolled back to when it
 * throws (the error is rethrown). The form SQLite and PostgreSQL both read.
 */
export async function inSavepoint<T>(
  execute: (sql: string) => unknown,
  depth: number,
  work: () => Promise<T>,
): Promise<T> {
  const name = `tessera_${depth}`;
  await execute(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    await execute(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await execute(`ROLLBACK TO SAVEPOINT ${name}`);
    await execute(`RELEASE SAVEPOINT ${name}`);
    throw error;
  }
}
