import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Http = typeof import("@tessera/http");

export default {
  does: "route a JSON POST, read its body, answer 400 for a bad or oversized one",
  imports: () => ["@tessera/http"],
  async run({ load, check }) {
    const { parseCookies, readJsonBody, routeRequests, safeLocalPath } =
      await load<Http>("@tessera/http");
    const handle = routeRequests([
      {
        method: "POST",
        path: "/api/posts/:id",
        handle: async (request, { params }) => {
          const body = await readJsonBody(request, { maximumBytes: 64 });
          if (!body.ok) return body.response;
          return Response.json({ id: params.id, title: body.value.title }, { status: 201 });
        },
      },
    ]);
    const post = (body: string, contentType = "application/json") =>
      handle(
        new Request("http://app.test/api/posts/caf%C3%A9", {
          method: "POST",
          headers: { "Content-Type": contentType },
          body,
        }),
      );

    const created = await post('{"title":"Hello"}');
    check(created?.status === 201, "a valid JSON body is answered 201");
    const value = (await created?.json()) as { id: string; title: string };
    check(
      value.id === "café" && value.title === "Hello",
      "decoded param and body reach the handler",
    );

    const prefix = "Failed to deserialize the JSON body into the target type: ";
    const cases = [
      ['{"title":', "application/json", "the body is not valid JSON"],
      ["[1, 2]", "application/json", "invalid type: array, expected an object"],
      ['{"title":"x"}', "text/plain", "expected `Content-Type: application/json`"],
      [
        JSON.stringify({ title: "x".repeat(100) }),
        "application/json",
        "the body is larger than 64 bytes",
      ],
    ] as const;
    for (const [body, contentType, reason] of cases) {
      const response = await post(body, contentType);
      const envelope = (await response?.json()) as { error: { message: string; status: number } };
      check(
        response?.status === 400 &&
          envelope.error.status === 400 &&
          envelope.error.message === prefix + reason,
        `400 envelope: ${reason}`,
      );
    }

    check(
      (await handle(new Request("http://app.test/nowhere"))) === undefined,
      "no route, no answer",
    );
    check(parseCookies('a=1; b="two"; a=3').get("b") === "two", "cookies are parsed");
    check(
      safeLocalPath("/posts?page=2") === "/posts?page=2" &&
        safeLocalPath("/%2F%2Fevil") === undefined,
      "safeLocalPath keeps local paths and refuses //evil",
    );
  },
} satisfies RuntimeSmoke;
