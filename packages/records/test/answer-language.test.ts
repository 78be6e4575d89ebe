import { describe, expect, it } from "vitest";
import { FRENCH, inFrench, languageOf } from "../../../test/support/language-headers.js";
import { ADA, fileForm, postBody, setUpApp } from "./fixtures.js";

/** The language headers of an answer, and its status. */

describe("the JSON record routes' answers", () => {
  it("carry the Content-Language and Vary of the request's locale, written by the route", async () => {
    const app = await setUpApp();
    const created = await app.sendJson(ADA, "POST", "/api/labels", { name: "urgent" }, FRENCH);
    expect(languageOf(created)).toEqual(inFrench(201));
    const { public_id: id } = (await created.json()) as { public_id: string };
    const shown = await app.api(ADA, "GET", `/api/labels/${id}`, {}, FRENCH);
    expect(languageOf(shown)).toEqual(inFrench(200));
    const listed = await app.api(ADA, "GET", "/api/labels", {}, FRENCH);
    expect(languageOf(listed)).toEqual(inFrench(200));
    const updated = await app.sendJson(
      ADA,
      "PATCH",
      `/api/labels/${id}`,
      { name: "later" },
      FRENCH,
    );
    expect(languageOf(updated)).toEqual(inFrench(200));
  });

  it("carry no language headers when no locale was chosen", async () => {
    const app = await setUpApp();
    const created = await app.sendJson(ADA, "POST", "/api/labels", { name: "urgent" });
    expect(languageOf(created)).toEqual([201, null, null]);
  });
});

describe("the attachment routes' answers", () => {
  it("carry the language headers of the request's locale, written by the route, refusals included", async () => {
    const app = await setUpApp();
    expect((await app.sendJson(ADA, "POST", "/api/posts", postBody())).status).toBe(201);
    const upload = (path: string, method: string) =>
      app.api(ADA, method, path, { body: fileForm("bytes", "one.png", "image/png") }, FRENCH);
    expect(languageOf(await upload("/api/posts/1/cover", "PUT"))).toEqual(inFrench(200));
    expect(languageOf(await upload("/api/posts/1/photos", "POST"))).toEqual(inFrench(201));
    const listed = await app.api(ADA, "GET", "/api/posts/1/photos", {}, FRENCH);
    expect(languageOf(listed)).toEqual(inFrench(200));
    const missing = await app.api(ADA, "GET", "/api/posts/9/photos", {}, FRENCH);
    expect(languageOf(missing)).toEqual(inFrench(404));
    const plain = await app.api(ADA, "GET", "/api/posts/1/photos");
    expect(languageOf(plain)).toEqual([200, null, null]);
  });
});
