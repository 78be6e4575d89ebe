import type { Route } from "@tessera/http";
import { describe, expect, it } from "vitest";
import { lazyRoutes } from "../src/lazy-routes.js";

const CONTEXT = { params: {}, clientAddress: "127.0.0.1" };
const SHAPES = [
  { method: "POST", path: "/graphql" },
  { method: "GET", path: "/graphql" },
] as const;

/** A build that counts its runs and finishes when `finish` is called. */
function countedBuild() {
  const state = { runs: 0, finish: () => {} };
  const build = () => {
    state.runs++;
    return new Promise<Route[]>((resolve) => {
      state.finish = () =>
        resolve(
          SHAPES.map(({ method, path }) => ({
            method,
            path,
            handle: async () => new Response(`${method} ${path}`),
          })),
        );
    });
  };
  return { state, build };
}

describe("lazyRoutes", () => {
  it("builds nothing before the first request, then once for requests that come together", async () => {
    const { state, build } = countedBuild();
    const [post, get] = lazyRoutes(SHAPES, build);
    expect(state.runs).toBe(0);
    const answers = [
      post!.handle(new Request("http://app.test/graphql", { method: "POST" }), CONTEXT),
      get!.handle(new Request("http://app.test/graphql"), CONTEXT),
      post!.handle(new Request("http://app.test/graphql", { method: "POST" }), CONTEXT),
    ];
    state.finish();
    const texts = await Promise.all(answers.map(async (answer) => (await answer).text()));
    expect(texts).toEqual(["POST /graphql", "GET /graphql", "POST /graphql"]);
    await get!.handle(new Request("http://app.test/graphql"), CONTEXT);
    expect(state.runs).toBe(1);
  });

  it("tries a failed build again on the next request", async () => {
    let runs = 0;
    const [route] = lazyRoutes(SHAPES.slice(0, 1), async () => {
      runs++;
      if (runs === 1) throw new Error("not yet");
      return [{ method: "POST", path: "/graphql", handle: async () => new Response("built") }];
    });
    const request = () => new Request("http://app.test/graphql", { method: "POST" });
    await expect(route!.handle(request(), CONTEXT)).rejects.toThrow("not yet");
    expect(await (await route!.handle(request(), CONTEXT)).text()).toBe("built");
    expect(runs).toBe(2);
  });

  it("fails loudly when the build gives no route for a shape", async () => {
    const [route] = lazyRoutes(SHAPES.slice(1), async () => []);
    await expect(route!.handle(new Request("http://app.test/graphql"), CONTEXT)).rejects.toThrow(
      "the lazily built routes have no GET /graphql",
    );
  });
});
