import { describe, expect, it } from "vitest";
import {
  BLANK,
  defineMessages,
  ENGLISH,
  errorSummaryHeading,
  fillTemplate,
  fullMessage,
  INVALID,
  type Locale,
  localizeFieldMessages,
  localizeValidationMessage,
  tooLongMessage,
  type ValidationMessageId,
  validationMessages,
} from "../src/index.js";

const messages = defineMessages({
  "demo.greeting": "Hello, {name}",
  "demo.limit": "is too long (maximum is {maximum} characters)",
  "demo.plain": "Not found",
});
const french: Locale = {
  tag: "fr",
  catalog: { "demo.greeting": "Bonjour, {name}", "demo.plain": "Introuvable" },
};

describe("defineMessages", () => {
  it("writes English without a locale, and with the ENGLISH locale", () => {
    expect(messages.text(undefined, "demo.greeting", { name: "Ada" })).toBe("Hello, Ada");
    expect(messages.text(ENGLISH, "demo.plain")).toBe("Not found");
  });

  it("writes the locale's template when its catalog has the id", () => {
    expect(messages.text(french, "demo.greeting", { name: "Ada" })).toBe("Bonjour, Ada");
    expect(messages.text(french, "demo.plain")).toBe("Introuvable");
  });

  it("falls back to English for an id the locale's catalog lacks", () => {
    expect(messages.text(french, "demo.limit", { maximum: 100 })).toBe(
      "is too long (maximum is 100 characters)",
    );
  });

  it("keeps its English templates for translators and completeness checks", () => {
    expect(Object.keys(messages.english)).toEqual(["demo.greeting", "demo.limit", "demo.plain"]);
  });
});

describe("fillTemplate", () => {
  it("fills every hole, and leaves a hole with no parameter as written", () => {
    expect(fillTemplate("{a} and {a}, {b}", { a: 1 })).toBe("1 and 1, {b}");
  });

  it("puts parameter values in as they are: no template syntax inside them is read", () => {
    expect(fillTemplate("Hello, {name}", { name: "{name} <b>" })).toBe("Hello, {name} <b>");
  });

  it("gives a template without holes back unchanged", () => {
    expect(fillTemplate("Not found", { name: "x" })).toBe("Not found");
  });
});

describe("localizeValidationMessage", () => {
  const french: Locale = {
    tag: "fr",
    catalog: {
      "validation.blank": "doit être rempli(e)",
      "validation.too_long_characters": "est trop long (pas plus de {maximum} caractères)",
      "validation.unsupported_type": "a un type non pris en charge (permis : {types})",
      "validation.full_message": "{field} {message}",
    },
  };

  it("reads each English message back to its template and writes it in the locale", () => {
    expect(localizeValidationMessage(BLANK, french)).toBe("doit être rempli(e)");
    expect(localizeValidationMessage(tooLongMessage(100), french)).toBe(
      "est trop long (pas plus de 100 caractères)",
    );
    expect(
      localizeValidationMessage("has an unsupported type (allowed: image/png, image/gif)", french),
    ).toBe("a un type non pris en charge (permis : image/png, image/gif)");
  });

  it("leaves English, untranslated templates and an app's own messages as they are", () => {
    expect(localizeValidationMessage(BLANK, undefined)).toBe(BLANK);
    expect(localizeValidationMessage(BLANK, ENGLISH)).toBe(BLANK);
    expect(localizeValidationMessage(INVALID, french)).toBe(INVALID);
    expect(localizeValidationMessage("must be a prime number", french)).toBe(
      "must be a prime number",
    );
  });

  it("localizes every message of a 422's fields, and the full messages of forms", () => {
    expect(localizeFieldMessages({ title: [BLANK, tooLongMessage(5)] }, french)).toEqual({
      title: ["doit être rempli(e)", "est trop long (pas plus de 5 caractères)"],
    });
    expect(fullMessage("post_id", BLANK, french)).toBe("Post doit être rempli(e)");
    expect(fullMessage("publish_on", BLANK)).toBe("Publish on can't be blank");
  });

  it("has a template for every message the validators write", () => {
    for (const id of Object.keys(validationMessages.english)) {
      if (id === "validation.full_message" || id.startsWith("validation.summary.")) continue;
      const sample = validationMessages.text(undefined, id as ValidationMessageId, {
        minimum: -1,
        maximum: 2,
        megabytes: 3,
        types: "a/b",
      });
      const marked: Locale = { tag: "xx", catalog: { [id]: `<${id}>` } };
      expect(localizeValidationMessage(sample, marked)).toBe(`<${id}>`);
    }
  });
});

describe("errorSummaryHeading", () => {
  const french: Locale = {
    tag: "fr",
    catalog: {
      "validation.summary.one": "{count} erreur",
      "validation.summary.other": "{count} erreurs",
    },
  };

  it("chooses the template by the language's plural rules", () => {
    expect(errorSummaryHeading(1)).toBe("1 error stopped this form");
    expect(errorSummaryHeading(2)).toBe("2 errors stopped this form");
    // French counts 0 and 1 as "one".
    expect(errorSummaryHeading(0, french)).toBe("0 erreur");
    expect(errorSummaryHeading(3, french)).toBe("3 erreurs");
  });

  it("uses English plural rules for a tag Intl cannot read", () => {
    const odd: Locale = { tag: "not a tag!", catalog: french.catalog };
    expect(errorSummaryHeading(1, odd)).toBe("1 erreur");
    expect(errorSummaryHeading(0, odd)).toBe("0 erreurs");
  });
});
