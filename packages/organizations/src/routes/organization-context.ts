import type { RouteContext } from "@tessera/http";
import type { OrganizationMembership } from "./organization-member.js";

/** The signed-in user as the organization routes need them. */
export interface OrganizationUser {
  readonly id: number;
  /** Their (normalized) address: an invitation is accepted by the address it was sent to. */
  readonly email: string;
  /** When they confirmed that address, or null: an unconfirmed one accepts no invitation. */
  readonly confirmedAt: number | null;
}

/** A request the routes' `authenticate` let through. */
export type OrganizationUserContext<C extends RouteContext = RouteContext> = C & {
  readonly user: OrganizationUser;
};

/** A request of a member of the path's organization, as `organizationMember` let it through. */
export type OrganizationMemberContext<C extends RouteContext = RouteContext> =
  OrganizationUserContext<C> & OrganizationMembership;
