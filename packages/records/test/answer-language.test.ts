import { describe, expect, it } from "vitest";
import { ADA, setUpApp } from "./fixtures.js";

const french = { tag: "fr", catalog: {} };

/** The language headers of an answer, and its status. */
const languageOf = (response: Response) => [
  response.status,
  response.headers.get("content-language"),
  response.headers.get("vary"),
];

describe("the JSON record routes' answers", () => {
  it("carry the Content-Language and Vary of the request's locale, written by the route", async () => {
    const app = await setUpApp();
    const created = await app.sendJson(ADA, "POST", "/api/labels", { name: "urgent" }, french);
    expect(languageOf(created)).toEqual([201, "fr", "Accept-Language"]);
    const { public_id: id } = (await created.json()) as { public_id: string };
    const shown = await app.api(ADA, "GET", `/api/labels/${id}`, {}, french);
    expect(languageOf(shown)).toEqual([200, "fr", "Accept-Language"]);
    const listed = await app.api(ADA, "GET", "/api/labels", {}, french);
    expect(languageOf(listed)).toEqual([200, "fr", "Accept-Language"]);
    const updated = await app.sendJson(
      ADA,
      "PATCH",
      `/api/labels/${id}`,
      { name: "later" },
      french,
    );
    expect(languageOf(updated)).toEqual([200, "fr", "Accept-Language"]);
  });

  it("carry no language headers when no locale was chosen", async () => {
    const app = await setUpApp();
    const created = await app.sendJson(ADA, "POST", "/api/labels", { name: "urgent" });
    expect(languageOf(created)).toEqual([201, null, null]);
  });
});
