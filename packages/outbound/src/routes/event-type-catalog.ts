/** One event type an app sends, as its catalog lists it: `GET /api/webhook_event_types`. */
export interface EventTypeDescription {
  /** `note.created`: what an endpoint's `events` filter names. */
  readonly name: string;
  readonly description: string;
  /** The JSON Schema (2020-12) of the event's `data`. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/** The names of a catalog's event types, in its order. */
export function eventTypeNames(catalog: readonly EventTypeDescription[]): readonly string[] {
  return catalog.map((type) => type.name);
}
