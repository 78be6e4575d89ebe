import type { Locale } from "@tessera/core";
import { OWNER_ROLE } from "../roles.js";
import type { OrganizationAccess } from "./organization-member.js";
import { organizationMessages } from "./organization-messages.js";

/** What {@link keepSoleOwners} is made of. */
export interface KeepSoleOwnersOptions extends OrganizationAccess {
  /** The language of a request's refusal (the app's locale chooser); English when absent. */
  readonly localeOf?: ((request: Request) => Locale | undefined) | undefined;
}

/**
 * A `beforeUserDeleted` hook of `@tessera/accounts`: keeps the account of a user who is the only
 * owner of an organization (`last_owner`, naming them), since deleting it would leave the
 * organization with no owner. They make another member an owner, or delete the organization,
 * and then their account goes.
 */
export function keepSoleOwners(options: KeepSoleOwnersOptions) {
  const store = options.organizations;
  return async (event: {
    readonly user: { readonly id: number };
    readonly request: Request;
  }): Promise<{ readonly code: string; readonly message: string } | undefined> => {
    const owned = (await store.listForUser(event.user.id)).filter(
      (membership) => membership.role === OWNER_ROLE,
    );
    const alone: string[] = [];
    for (const { organization } of owned) {
      const members = await store.listMembers(organization.id);
      const others = members.filter(
        (member) => member.userId !== event.user.id && member.role === OWNER_ROLE,
      );
      if (others.length === 0) alone.push(organization.name);
    }
    if (alone.length === 0) return undefined;
    const locale = options.localeOf?.(event.request);
    const message = organizationMessages.text(locale, "organizations.sole_owner_account", {
      organizations: alone.join(", "),
    });
    return { code: "last_owner", message };
  };
}
