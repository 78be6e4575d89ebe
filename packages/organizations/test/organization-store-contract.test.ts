import {
  describeOrganizationStoreContract,
  type MemberProfile,
  MemoryOrganizationStore,
} from "@tessera/organizations/testing";
import { postgresSchema, sqliteFile, underTest } from "./support/databases.js";

describeOrganizationStoreContract("memory", async () => {
  const users = new Map<number, MemberProfile>();
  return {
    store: new MemoryOrganizationStore((id) => users.get(id)),
    async newUser(email, name) {
      users.set(users.size + 1, { email, name });
      return users.size;
    },
  };
});

describeOrganizationStoreContract("SQLite (better-sqlite3 file)", async () =>
  underTest((await sqliteFile()).database),
);

describeOrganizationStoreContract("PostgreSQL (pg)", async () =>
  underTest((await postgresSchema()).database),
);
