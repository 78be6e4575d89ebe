// Each French catalog against its package's English one: every id, nothing else, and the same
// `{values}` in each template. The types hold the ids too (`satisfies Record<…MessageId, string>`
// in each catalog's file); this also catches a hole a translation lost or misspelled.
import { accountMessages } from "@tessera/accounts";
import { type MessageCatalog, type Messages, validationMessages } from "@tessera/core";
import { httpMessages } from "@tessera/http";
import {
  french,
  frenchAccounts,
  frenchHttp,
  frenchOAuth,
  frenchOrganizations,
  frenchOutbound,
  frenchRecords,
  frenchSession,
  frenchValidation,
} from "@tessera/locale-fr";
import { oauthMessages } from "@tessera/oauth";
import { organizationMessages } from "@tessera/organizations/routes";
import { outboundMessages } from "@tessera/outbound/routes";
import { recordMessages } from "@tessera/records";
import { sessionMessages } from "@tessera/session";
import { describe, expect, it } from "vitest";

const CATALOGS: readonly (readonly [string, Messages<string>, MessageCatalog])[] = [
  ["@tessera/core", validationMessages, frenchValidation],
  ["@tessera/http", httpMessages, frenchHttp],
  ["@tessera/records", recordMessages, frenchRecords],
  ["@tessera/accounts", accountMessages, frenchAccounts],
  ["@tessera/session", sessionMessages, frenchSession],
  ["@tessera/oauth", oauthMessages, frenchOAuth],
  ["@tessera/outbound", outboundMessages, frenchOutbound],
  ["@tessera/organizations", organizationMessages, frenchOrganizations],
];

const holesOf = (template: string) =>
  [...template.matchAll(/\{(\w+)\}/g)].map((hole) => hole[1]).sort();

describe("the French catalogs", () => {
  for (const [name, messages, catalog] of CATALOGS) {
    describe(name, () => {
      it("translates every message, with the same values put in", () => {
        const english = Object.entries(messages.english);
        const missing = english.filter(([id]) => !catalog[id]?.trim()).map(([id]) => id);
        expect(missing).toEqual([]);
        for (const [id, template] of english) {
          expect({ id, holes: holesOf(catalog[id] ?? "") }).toEqual({
            id,
            holes: holesOf(template),
          });
        }
      });

      it("has no message the package does not write", () => {
        const known = new Set(Object.keys(messages.english));
        expect(Object.keys(catalog).filter((id) => !known.has(id))).toEqual([]);
      });
    });
  }

  it("join into `french` whole: no two packages share an id", () => {
    const ids = CATALOGS.flatMap(([, messages]) => Object.keys(messages.english));
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(french).sort()).toEqual([...ids].sort());
    for (const [, , catalog] of CATALOGS) {
      for (const [id, template] of Object.entries(catalog)) expect(french[id]).toBe(template);
    }
  });
});
