// The GraphQL routes' cases: real operations with hostile arguments and variables, and hostile
// operations (huge, deep, wide, recursive).
import fc, { type Arbitrary } from "fast-check";
import { pathOf } from "./case-builders.js";
import { jsonObjectText, jsonPayload, type Payload, queryOf } from "./fuzz-bodies.js";
import { bearerHeaders, type Header } from "./fuzz-headers.js";
import { type FuzzedRoute, fuzzed } from "./fuzzed-route.js";
import { deeplyNested, hostileJson, hostileText, jsonString } from "./hostile-input.js";

/** A constant JSON text. */
const json = (value: unknown) => fc.constant(JSON.stringify(value));

/** Every field of a Note the operations select. */
const NOTE_FIELDS = "id title body pinned dueOn rating wordCount tags postId";
/** A `NoteCreateInput` or `NoteUpdateInput` value: the fields, right or wrong. */
const noteInput = jsonObjectText({
  title: fc.oneof(json("A note"), hostileText.map(jsonString), json(null), json(5)),
  body: hostileJson,
  pinned: fc.constantFrom("true", "false", "null", '"yes"'),
  dueOn: fc.oneof(json("2024-02-29"), hostileJson),
  rating: fc.constantFrom("1.5", "1e400", "-0", '"NaN"', "null"),
  wordCount: fc.constantFrom("1", "9007199254740991", "9007199254740993", "-1e400", '"7"', "1.5"),
  tags: hostileJson,
  postId: fc.constantFrom('"1"', "1", '"-1"', '"1e3"', "null", '"9999999999999999"'),
});
/** An `ID!` variable: an id as GraphQL sends it, or any JSON. */
const graphqlId = fc.oneof(
  fc.constantFrom('"1"', "1", '"-1"', '"1e3"', "null", '"9999999999999999"', '""'),
  hostileJson,
);
/** An `Int` argument written in the operation, in range or not, of its type or not. */
const intArgument = fc.constantFrom(
  "1",
  "100",
  "0",
  "-1",
  "2147483648",
  "9007199254740993",
  "1.5",
  '"1"',
  "null",
  "1e400",
);
/**
 * Operations that cost the server: 2 MB of fields, a list literal nested 6,000 deep, selections
 * nested 50 deep, 300 aliases, a fragment that spreads itself, 1,000 directives, introspection.
 */
const hugeOperation = fc.constantFrom(
  `{ ${"__typename ".repeat(200_000)}}`,
  `query { notes(limit: ${"[".repeat(6_000)}1${"]".repeat(6_000)}) { id } }`,
  `{ ${"notes { ".repeat(50)}id${" }".repeat(50)} }`,
  `{ ${Array.from({ length: 300 }, (_, i) => `a${i}: __typename`).join(" ")} }`,
  `fragment A on Note { ...A } { notes { ...A } }`,
  `{ notes @${"skip(if: false) @".repeat(1000)}skip(if: false) { id } }`,
  `{ __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }`,
);
/** An operation, and its variables as JSON text. */
interface Operation {
  readonly query: string;
  readonly variables?: string;
}

/** The operation and its variables, or a hostile operation. */
const operation: Arbitrary<Operation> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(intArgument, intArgument).map(([limit, offset]) => ({
      query: `{ notes(limit: ${limit}, offset: ${offset}) { ${NOTE_FIELDS} } }`,
    })),
  },
  {
    weight: 3,
    arbitrary: graphqlId.map((id) => ({
      query: `query ($id: ID!) { note(id: $id) { ${NOTE_FIELDS} } }`,
      variables: `{"id":${id}}`,
    })),
  },
  {
    weight: 4,
    arbitrary: noteInput.map((input) => ({
      query: `mutation ($input: NoteCreateInput!) { createNote(input: $input) { ${NOTE_FIELDS} } }`,
      variables: `{"input":${input}}`,
    })),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(graphqlId, noteInput).map(([id, input]) => ({
      query: `mutation ($id: ID!, $input: NoteUpdateInput!) { updateNote(id: $id, input: $input) { id } }`,
      variables: `{"id":${id},"input":${input}}`,
    })),
  },
  {
    weight: 1,
    arbitrary: graphqlId.map((id) => ({
      query: `mutation ($id: ID!) { deleteNote(id: $id) }`,
      variables: `{"id":${id}}`,
    })),
  },
  { weight: 2, arbitrary: hostileText.map((query) => ({ query })) },
  { weight: 1, arbitrary: hugeOperation.map((query) => ({ query })) },
  {
    weight: 1,
    arbitrary: deeplyNested.map((value) => ({ query: `{ note(id: ${value}) { id } }` })),
  },
);
/** A GraphQL request as JSON text: the operation, and its variables and name when given. */
function graphqlRequestText(query: string, variables?: string, operationName?: string): string {
  const members = [`"query":${jsonString(query)}`];
  if (variables !== undefined) members.push(`"variables":${variables}`);
  if (operationName !== undefined) members.push(`"operationName":${operationName}`);
  return `{${members.join(",")}}`;
}

/** Mostly an operation with a name or none; else any JSON in each member. */
const graphqlBody: Arbitrary<Payload> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(operation, fc.option(fc.oneof(json("A"), hostileJson), { freq: 2, nil: undefined }))
      .map(
        ([{ query, variables }, operationName]): Payload => ({
          headers: [["content-type", "application/json"]],
          body: { kind: "text", text: graphqlRequestText(query, variables, operationName) },
        }),
      ),
  },
  {
    weight: 2,
    arbitrary: jsonPayload({
      query: hostileJson,
      variables: hostileJson,
      operationName: hostileJson,
    }),
  },
);
/** No `Accept`, JSON, or GraphQL's own media type (which turns refusals into 400s). */
const graphqlAccept = fc.constantFrom<Header[]>(
  [],
  [["accept", "application/json"]],
  [["accept", "application/graphql-response+json"]],
);
/** `POST /graphql`, and `GET /graphql` (which graphql-http serves for queries). */
export const graphqlRoutes: FuzzedRoute[] = [
  fuzzed("POST /graphql", "graphql", {
    path: pathOf("/graphql"),
    headers: fc
      .tuple(bearerHeaders, graphqlAccept)
      .map(([bearer, accept]) => [...bearer, ...accept]),
    payload: graphqlBody,
  }),
  fuzzed("GET /graphql", "graphql", {
    path: pathOf(
      "/graphql",
      {},
      queryOf({
        query: fc.constantFrom("{ notes { id } }", "mutation { deleteNote(id: 1) }"),
        variables: fc.constant("{}"),
      }),
    ),
    headers: fc
      .tuple(bearerHeaders, graphqlAccept)
      .map(([bearer, accept]) => [...bearer, ...accept]),
  }),
];
