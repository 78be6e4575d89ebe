import { closestName } from "./closest-type.js";

/** A write a model's records can send an event for: its type is `<model>.<action>`. */
export type RecordEventAction = "created" | "updated" | "deleted";

/** Every {@link RecordEventAction}, in the order a model's `events` lists them. */
export const RECORD_EVENT_ACTIONS: readonly RecordEventAction[] = ["created", "updated", "deleted"];

/** `defineModel`'s `events`: `true` for every action, or the actions to send events for. */
export type ModelEventsOption = true | readonly RecordEventAction[];

/**
 * The actions `option` names, in {@link RECORD_EVENT_ACTIONS} order (none when it is left
 * out or empty), or why it cannot be read: an unknown or repeated action, or neither `true`
 * nor an array (plain JavaScript can pass anything).
 */
export function modelEventActions(
  option: unknown,
):
  | { readonly ok: true; readonly value: readonly RecordEventAction[] }
  | { ok: false; problem: string } {
  if (option === undefined || option === true) {
    return { ok: true, value: option ? RECORD_EVENT_ACTIONS : [] };
  }
  if (!Array.isArray(option)) {
    return { ok: false, problem: "events is `true` or a list of `created`, `updated`, `deleted`" };
  }
  const seen = new Set<string>();
  for (const action of option as readonly unknown[]) {
    if (
      typeof action !== "string" ||
      !(RECORD_EVENT_ACTIONS as readonly string[]).includes(action)
    ) {
      const written = typeof action === "string" ? action : String(action);
      const closest = closestName(written, RECORD_EVENT_ACTIONS);
      const hint = closest
        ? `did you mean \`${closest}\`?`
        : "write `created`, `updated` or `deleted`";
      return { ok: false, problem: `\`${written}\` in events is not an action (${hint})` };
    }
    if (seen.has(action)) return { ok: false, problem: `\`${action}\` is listed twice in events` };
    seen.add(action);
  }
  return { ok: true, value: RECORD_EVENT_ACTIONS.filter((action) => seen.has(action)) };
}
