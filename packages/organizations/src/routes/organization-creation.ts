import type { AuditTrail } from "@tessera/accounts";
import { type Clock, systemClock } from "@tessera/core";
import type { Organization } from "../organization.js";
import type { OrganizationStore } from "../organization-store.js";
import { slugFromName } from "../slug.js";
import { type AuditedRequest, recordOrganizationEvent } from "./organization-audit.js";
import {
  addProblem,
  type FieldErrors,
  nameProblem,
  TAKEN,
  writtenSlugProblem,
} from "./organization-fields.js";

/** What came of creating an organization: made (its creator its owner), or refused on fields. */
export type OrganizationCreation =
  | { readonly ok: true; readonly organization: Organization }
  | { readonly ok: false; readonly fields: FieldErrors };

/**
 * Creates organizations the one way the JSON route and the page share: the name trimmed and
 * checked, the slug checked when written or made from the name, taken: a 422 on `slug`. A
 * created organization is recorded in `audit` (`organization.created`, about its creator).
 */
export function organizationCreator(
  store: OrganizationStore,
  clock: Clock = systemClock,
  audit?: AuditTrail | undefined,
) {
  return async (
    userId: number,
    written: { readonly name: string | undefined; readonly slug: string | undefined },
    at: AuditedRequest,
  ): Promise<OrganizationCreation> => {
    const name = written.name?.trim();
    const fields: FieldErrors = {};
    addProblem(fields, "name", nameProblem(name));
    if (written.slug !== undefined) addProblem(fields, "slug", writtenSlugProblem(written.slug));
    if (Object.keys(fields).length > 0) return { ok: false, fields };
    const slug = written.slug ?? slugFromName(name as string);
    const organization = await store.createOrganization({
      name: name as string,
      slug,
      ownerId: userId,
      now: clock(),
    });
    if (!organization) return { ok: false, fields: { slug: [TAKEN] } };
    await recordOrganizationEvent(audit, "organization.created", userId, at, organization);
    return { ok: true, organization };
  };
}
