/**
 * The default report of an account mail that could not be handed over: one line on stderr
 * naming the mail's purpose and the error, never the recipient's token.
 */
export function reportMailErrorToStderr(error: unknown, purpose: string): void {
  console.error(`Could not send the ${purpose} mail: ${(error as Error)?.message ?? error}`);
}
