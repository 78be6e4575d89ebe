import type { Organization } from "../organization.js";
import type { OrganizationChange, OrganizationStore } from "../organization-store.js";
import {
  addProblem,
  type FieldErrors,
  nameProblem,
  TAKEN,
  writtenSlugProblem,
} from "./organization-fields.js";

/** A change as written: a field left out (undefined) stays as it is. */
export interface WrittenOrganizationChange {
  readonly name?: string | undefined;
  readonly slug?: string | undefined;
}

/** What came of changing an organization: changed, refused on fields, or gone meanwhile. */
export type OrganizationUpdate =
  | { readonly ok: true; readonly organization: Organization }
  | { readonly ok: false; readonly fields: FieldErrors }
  | { readonly ok: false; readonly gone: true };

/**
 * Renames organizations the one way the JSON route and the page share: the name trimmed and
 * checked (blank, too long, a control character), a written slug checked (blank, malformed,
 * reserved), another organization's slug a refusal on `slug` (`has already been taken`); a
 * change of nothing writes nothing. The permission check comes before, in the caller. No audit
 * event names a rename, so neither route records one; one added here would serve both.
 */
export function organizationUpdater(store: OrganizationStore) {
  return async (
    organization: Organization,
    written: WrittenOrganizationChange,
  ): Promise<OrganizationUpdate> => {
    const name = written.name?.trim();
    const { slug } = written;
    const fields: FieldErrors = {};
    if (name !== undefined) addProblem(fields, "name", nameProblem(name));
    if (slug !== undefined) addProblem(fields, "slug", writtenSlugProblem(slug));
    if (Object.keys(fields).length > 0) return { ok: false, fields };
    const change: OrganizationChange = {
      ...(name === undefined ? {} : { name }),
      ...(slug === undefined ? {} : { slug }),
    };
    if (change.name === undefined && change.slug === undefined) return { ok: true, organization };
    const updated = await store.updateOrganization(organization.id, change);
    if (updated === "slug_taken") return { ok: false, fields: { slug: [TAKEN] } };
    if (updated === undefined) return { ok: false, gone: true };
    return { ok: true, organization: updated };
  };
}
