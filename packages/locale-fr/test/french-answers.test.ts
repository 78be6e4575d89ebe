// A request asking for French gets Tessera's answers in French through the one catalog.
import { errorSummaryHeading, fullMessage } from "@tessera/core";
import { localeNegotiation, notFound, routeRequests, withMiddleware } from "@tessera/http";
import { french } from "@tessera/locale-fr";
import { describe, expect, it } from "vitest";

describe("french", () => {
  const handle = routeRequests(
    withMiddleware(
      [
        {
          method: "GET",
          path: "/posts/:id",
          handle: async (_request, { locale }) => notFound(locale),
        },
      ],
      localeNegotiation({ catalogs: { fr: french } }),
    ),
  );
  const get = async (language: string) => {
    const request = new Request("http://app.test/posts/7", {
      headers: { "accept-language": language },
    });
    const response = await handle(request);
    if (!response) throw new Error("the route did not answer");
    return response;
  };

  it("answers a French client in French, and anyone else in English", async () => {
    const inFrench = await get("fr-CA,fr;q=0.9");
    expect(inFrench.headers.get("content-language")).toBe("fr");
    expect((await inFrench.json()).error.message).toBe("Introuvable");
    const inEnglish = await get("de");
    expect(inEnglish.headers.get("content-language")).toBe("en");
    expect((await inEnglish.json()).error.message).toBe("Not found");
  });

  it("writes validation messages with French word order and plurals", () => {
    const locale = { tag: "fr", catalog: french };
    expect(fullMessage("title", "is too long (maximum is 100 characters)", locale)).toBe(
      "Title est trop long (pas plus de 100 caractères)",
    );
    // French says "one" for 0 and 1.
    expect([0, 1, 2].map((count) => errorSummaryHeading(count, locale))).toEqual([
      "0 erreur a empêché l'envoi de ce formulaire",
      "1 erreur a empêché l'envoi de ce formulaire",
      "2 erreurs ont empêché l'envoi de ce formulaire",
    ]);
  });
});
