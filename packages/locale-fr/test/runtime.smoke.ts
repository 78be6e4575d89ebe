import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type Core = typeof import("@tessera/core");
type Http = typeof import("@tessera/http");
type LocaleFr = typeof import("@tessera/locale-fr");

export default {
  does: "answer a French Accept-Language in French through the catalog, plurals by Intl",
  imports: () => ["@tessera/locale-fr", "@tessera/http", "@tessera/core"],
  async run({ load, check }) {
    const { french, frenchHttp } = await load<LocaleFr>("@tessera/locale-fr");
    const { localeNegotiation, notFound, routeRequests, withMiddleware } =
      await load<Http>("@tessera/http");
    const { errorSummaryHeading } = await load<Core>("@tessera/core");
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
    const answer = await handle(
      new Request("http://app.test/posts/7", { headers: { "Accept-Language": "fr-CA" } }),
    );
    const envelope = (await answer?.json()) as { error: { message: string } };
    check(
      answer?.status === 404 &&
        answer.headers.get("Content-Language") === "fr" &&
        envelope.error.message === "Introuvable",
      "a fr-CA request is answered 404 Introuvable, Content-Language: fr",
    );
    check(
      french["http.not_found"] === frenchHttp["http.not_found"],
      "the joined catalog holds each package's",
    );
    const locale = { tag: "fr", catalog: french };
    check(
      errorSummaryHeading(0, locale) === "0 erreur a empêché l'envoi de ce formulaire" &&
        errorSummaryHeading(2, locale) === "2 erreurs ont empêché l'envoi de ce formulaire",
      "the summary heading takes French plural rules (0 is one)",
    );
  },
} satisfies RuntimeSmoke;
