/** How a failed after-hook is told: the error and the hook's name. The write before it stands. */
export type HookErrorReporter<Name extends string> = (error: unknown, hook: Name) => void;

/** Reports a failed hook on stderr (`The onSignUp hook failed: …`): the default reporter. */
export function reportHookErrorToStderr(error: unknown, hook: string): void {
  console.error(`The ${hook} hook failed: ${(error as Error)?.message ?? error}`);
}

/**
 * Awaits an app's hook that runs after a committed write (`afterCreate`, `onSignUp`), called as
 * a method of `hooks` with the event `event()` builds (built only when there is a hook). A throw
 * goes to `report` and is not passed on: the write the hook follows stands, and so does the
 * answer.
 */
export async function runAfterHook<E, Name extends string>(
  hooks: object | undefined,
  name: Name,
  hook: ((event: E) => unknown) | undefined,
  event: () => E,
  report: HookErrorReporter<Name>,
): Promise<void> {
  if (!hook) return;
  try {
    await hook.call(hooks, event());
  } catch (error) {
    report(error, name);
  }
}
