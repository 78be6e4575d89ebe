/** The longest event type name (and event filter entry). */
export const MAXIMUM_EVENT_TYPE_LENGTH = 100;
const EVENT_TYPE = /^[A-Za-z0-9_.-]+$/;

/** Whether `type` is an event type name: 1 to 100 of letters, digits, `.`, `_` and `-`. */
export function isEventTypeName(type: unknown): type is string {
  return (
    typeof type === "string" && type.length <= MAXIMUM_EVENT_TYPE_LENGTH && EVENT_TYPE.test(type)
  );
}

/**
 * Whether `entry` may stand in an endpoint's event filter: an event type name (`note.created`),
 * or a name's prefix ending in `.*` (`note.*`), at most 100 characters either way.
 */
export function isEventFilterEntry(entry: unknown): entry is string {
  if (typeof entry !== "string" || entry.length > MAXIMUM_EVENT_TYPE_LENGTH) return false;
  return entry.endsWith(".*") ? isEventTypeName(entry.slice(0, -2)) : isEventTypeName(entry);
}

/**
 * Whether an endpoint whose event filter is `filter` takes an event of `type`: an empty filter
 * takes every event; an entry takes its own type, and `note.*` every type that starts with
 * `note.` (`note.created`, `note.comment.added`), never `note` itself or `notebook.created`.
 * The one rule every store and the app's checks go by.
 */
export function eventFilterTakes(filter: readonly string[], type: string): boolean {
  if (filter.length === 0) return true;
  return filter.some((entry) =>
    entry.endsWith(".*") ? type.startsWith(entry.slice(0, -1)) : entry === type,
  );
}
