import { isSecured, withLanguageHeaders } from "@tessera/http";
import { buildSchema } from "graphql";
import { createHandler } from "graphql-http";
import { describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { graphqlHttpResponse } from "../src/http-answer.js";
import { resultMediaType, successfulOperationAnswer } from "../src/operation-answer.js";

const schema = buildSchema(`
  type Note { id: Int!, title: String!, body: String, tags: [String!] }
  type Query { notes: [Note!]!, broken: String }
`);
const rootValue = {
  notes: () => [
    { id: 1, title: 'Caf\u00e9 \u2603 "quoted" \\ </script>', body: null, tags: ["a", "b"] },
    { id: 2, title: "line\nbreak", body: "\u2028", tags: [] },
  ],
  broken: () => {
    throw new Error("resolver failed");
  },
};
// graphql-http as it is, and with the answer to successful operations made by us.
const theirs = createHandler<Request>({ schema, rootValue });
const ours = createHandler<Request>({
  schema,
  rootValue,
  onOperation: (request, _args, result) =>
    successfulOperationAnswer(request.raw.headers.get("accept"), result),
});

const ACCEPTS = [
  null,
  "*/*",
  "application/json",
  "application/graphql-response+json",
  "application/graphql-response+json; charset=utf-8, application/json",
  "text/html, application/json;charset=utf8",
  "APPLICATION/JSON",
  "application/*",
  "application/json; charset=latin1, application/graphql-response+json",
  "application/graphql-response+json;charset=utf-16, */*",
];

function ask(handler: typeof ours, query: string, accept: string | null) {
  const headers = new Headers({ "content-type": "application/json" });
  if (accept !== null) headers.set("accept", accept);
  return handler({
    method: "POST",
    url: "http://app.test/graphql",
    headers,
    body: { query },
    raw: new Request("http://app.test/graphql", { headers }),
    context: undefined,
  });
}

describe("answers to successful operations", () => {
  it.each(ACCEPTS)(
    "are what graphql-http answers itself, byte for byte (Accept %j)",
    async (accept) => {
      const query = "{ notes { id title body tags } }";
      const expected = await ask(theirs, query, accept);
      expect(expected[1].status).toBe(200);
      expect(await ask(ours, query, accept)).toEqual(expected);
    },
  );

  it("leave results with errors to graphql-http", async () => {
    const answer = await ask(ours, "{ broken notes { id } }", "application/json");
    expect(answer).toEqual(await ask(theirs, "{ broken notes { id } }", "application/json"));
    expect(JSON.parse(answer[0]!).errors[0].message).toBe("resolver failed");
    expect(successfulOperationAnswer("application/json", { errors: [] })).toBeUndefined();
  });

  it("choose the media type as graphql-http does, or none for an Accept it refuses", () => {
    expect(resultMediaType("application/graphql-response+json, application/json")).toBe(
      "application/graphql-response+json",
    );
    expect(resultMediaType("application/json, application/graphql-response+json")).toBe(
      "application/json",
    );
    expect(resultMediaType(null)).toBe("application/json");
    expect(resultMediaType("text/html")).toBeUndefined();
    expect(resultMediaType("application/json; charset=latin1")).toBeUndefined();
  });

  it("are sent with the security headers, marked so no middleware reads them again", async () => {
    const response = graphqlHttpResponse(
      await ask(ours, "{ notes { id } }", "application/graphql-response+json"),
    );
    expect(isSecured(response)).toBe(true);
    expect(response.headers.get("content-type")).toBe(
      "application/graphql-response+json; charset=utf-8",
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.json()).toEqual({ data: { notes: [{ id: 1 }, { id: 2 }] } });
    expect(response.headers.get("content-language")).toBeNull();
  });

  it("carry the request's language headers from the start, when it has a locale", async () => {
    const answer = await ask(ours, "{ notes { id } }", "application/json");
    const response = graphqlHttpResponse(answer, FRENCH);
    expect(languageOf(response)).toEqual(inFrench(200));
    // So the language middleware leaves it as it is.
    expect(withLanguageHeaders(response, FRENCH)).toBe(response);
    expect(await response.json()).toEqual({ data: { notes: [{ id: 1 }, { id: 2 }] } });
  });
});
