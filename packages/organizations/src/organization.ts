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

/**
 * An organization's API key (a service account): it acts as the organization with its role, on
 * the organization's records and webhook endpoints only. Its secret is never kept, only a digest.
 */
export interface OrganizationKey {
  readonly id: number;
  readonly organizationId: number;
  /** What the key is for, as its maker wrote it (1 to 100 characters). */
  readonly name: string;
  /** The role it acts with: at most its maker's when it was made. */
  readonly role: string;
  /** The member who made it; null once that user is deleted (the key stays the organization's). */
  readonly createdBy: number | null;
  /** Null until the key is first used; then moved forward at most once an hour. */
  readonly lastUsedAt: number | null;
  readonly createdAt: number;
}
