import {
  AFTER_MESSAGE,
  LIMIT_MESSAGE,
  OFFSET_AND_AFTER_MESSAGE,
  OFFSET_MESSAGE,
} from "@tessera/http";
import { describe, expect, it } from "vitest";
import { ADA, postBody, setUpApp } from "./fixtures.js";

async function withPosts(count: number) {
  const app = await setUpApp();
  for (let i = 1; i <= count; i++) {
    await app.sendJson(ADA, "POST", "/api/posts", postBody({ title: `Post ${i}` }));
  }
  const ids = async (query: string) => {
    const response = await app.api(ADA, "GET", `/api/posts${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as Array<{ id: number }>).map((post) => post.id);
  };
  return { app, ids };
}

describe("GET /api/<plural>?limit=&offset=", () => {
  it("lists newest first, 50 by default, up to 100", async () => {
    const { ids } = await withPosts(105);
    const first = await ids("");
    expect(first).toHaveLength(50);
    expect(first.slice(0, 3)).toEqual([105, 104, 103]);
    expect(await ids("?limit=100")).toHaveLength(100);
    expect(await ids("?limit=1")).toEqual([105]);
    expect(await ids("?limit=3&offset=100")).toEqual([5, 4, 3]);
    expect(await ids("?offset=103")).toEqual([2, 1]);
    expect(await ids("?offset=500")).toEqual([]);
  });

  it("refuses a limit outside 1–100 or not a whole number with a 400 that says so", async () => {
    const { app } = await withPosts(1);
    for (const limit of ["0", "101", "-1", "abc", "", "1.5", "+5", "1e2", " 5"]) {
      const response = await app.api(ADA, "GET", `/api/posts?limit=${encodeURIComponent(limit)}`);
      expect([limit, response.status, await response.json()]).toEqual([
        limit,
        400,
        { error: { code: "bad_request", message: LIMIT_MESSAGE, status: 400 } },
      ]);
    }
    expect(LIMIT_MESSAGE).toBe("limit must be an integer from 1 to 100");
  });

  it("refuses a negative or non-integer offset with a 400 that says so", async () => {
    const { app } = await withPosts(1);
    for (const offset of ["-1", "x", "1.5", "", "99999999999999999"]) {
      const response = await app.api(ADA, "GET", `/api/posts?offset=${encodeURIComponent(offset)}`);
      expect([offset, response.status, await response.json()]).toEqual([
        offset,
        400,
        { error: { code: "bad_request", message: OFFSET_MESSAGE, status: 400 } },
      ]);
    }
  });

  it("links the next page after the last id, and walks every record once by following it", async () => {
    const { app } = await withPosts(7);
    const seen: number[] = [];
    let next: string | null = "/api/posts?limit=3";
    const links: (string | null)[] = [];
    while (next) {
      const response = await app.api(ADA, "GET", next);
      const posts = (await response.json()) as Array<{ id: number }>;
      seen.push(...posts.map((post) => post.id));
      const link = response.headers.get("link");
      links.push(link);
      next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
    }
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(links).toEqual([
      '</api/posts?limit=3&after=5>; rel="next"',
      '</api/posts?limit=3&after=2>; rel="next"',
      null,
    ]);
  });

  it("starts after an id whatever was added or deleted before it", async () => {
    const { app, ids } = await withPosts(5);
    expect(await ids("?limit=2&after=4")).toEqual([3, 2]);
    await app.sendJson(ADA, "POST", "/api/posts", postBody({ title: "Newer" }));
    await app.api(ADA, "DELETE", "/api/posts/5");
    expect(await ids("?limit=2&after=4")).toEqual([3, 2]);
    expect(await ids("?after=1")).toEqual([]);
  });

  it("refuses an after that is not an id, or given with an offset, with a 400 that says so", async () => {
    const { app } = await withPosts(1);
    for (const [query, message] of [
      ["after=0", AFTER_MESSAGE],
      ["after=-3", AFTER_MESSAGE],
      ["after=x", AFTER_MESSAGE],
      ["after=2&offset=1", OFFSET_AND_AFTER_MESSAGE],
    ] as const) {
      const response = await app.api(ADA, "GET", `/api/posts?${query}`);
      expect([query, response.status, await response.json()]).toEqual([
        query,
        400,
        { error: { code: "bad_request", message, status: 400 } },
      ]);
    }
  });

  it("pages the HTML listing the same way", async () => {
    const { app } = await withPosts(3);
    const { html } = await app.page(ADA, "GET", "/posts?limit=2");
    expect(html.indexOf("Post 3")).toBeLessThan(html.indexOf("Post 2"));
    expect(html).not.toContain("Post 1");
    expect(html).toContain('href="/posts?offset=2&amp;limit=2" rel="next">Older</a>');
    const older = await app.page(ADA, "GET", "/posts?offset=2&limit=2");
    expect(older.html).toContain("Post 1");
    expect(older.html).toContain('rel="prev">Newer</a>');
    const refused = await app.page(ADA, "GET", "/posts?limit=500");
    expect(refused.response.status).toBe(400);
    expect(refused.html).toContain(`${LIMIT_MESSAGE}.`);
  });
});
