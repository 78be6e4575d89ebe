import { LIMIT_MESSAGE, OFFSET_MESSAGE } from "@tessera/http";
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
        { error: { message: LIMIT_MESSAGE, status: 400 } },
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
        { error: { message: OFFSET_MESSAGE, status: 400 } },
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
