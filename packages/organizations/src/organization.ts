/** An organization: the owner of records, keys and webhook endpoints its members share. */
export interface Organization {
  readonly id: number;
  /** 1 to 100 characters. */
  readonly name: string;
  /** Unique, `[a-z0-9-]`, 3 to 40 characters: its routes are `/api/orgs/<slug>/…`. */
  readonly slug: string;
  readonly createdAt: number;
}

/** An organization as one member sees it: with their role. */
export interface OrganizationWithRole {
  readonly organization: Organization;
  readonly role: string;
}

/** A member as the members list shows them. */
export interface Member {
  readonly userId: number;
  readonly email: string;
  readonly name: string | null;
  readonly role: string;
  readonly joinedAt: number;
}

/** An invitation to join an organization, sent to an email address. */
export interface Invitation {
  readonly id: number;
  readonly organizationId: number;
  /** Normalized as accounts normalize addresses: the accepting user's must equal it. */
  readonly email: string;
  readonly role: string;
  /** The user who invited. */
  readonly invitedBy: number;
  readonly expiresAt: number;
  readonly acceptedAt: number | null;
  readonly revokedAt: number | null;
  readonly createdAt: number;
}
