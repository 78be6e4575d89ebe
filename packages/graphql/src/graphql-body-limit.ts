/**
 * Default cap of a GraphQL request body: 128 KiB, room for an operation at its own 64 KiB limit
 * and as much again of variables. Every byte of a body is read and JSON-parsed on the event loop
 * before any limit on the operation can run, so the cap is what bounds that work: at the JSON
 * API's 4 MiB, one body held other requests up for half a second on a busy machine.
 */
export const DEFAULT_MAXIMUM_GRAPHQL_BODY_BYTES = 128 * 1024;
