// The test kit of @tessera/accounts (`@tessera/accounts/testing`): the memory stores and the
// contracts an audit log, a user store, an emailed-token store, an emailed-code store, an email change store,
// a second-factor store and a passkey store owe their callers.
// It imports vitest (an optional peer): load it from test files only, never from an app.

export { describeAuditLogContract } from "./audit/audit-log-contract.js";
export { MemoryAuditLog } from "./audit/memory-audit-log.js";
export {
  describeEmailChangeStoreContract,
  type EmailChangeStoreUnderTest,
} from "./email-change/email-change-store-contract.js";
export { MemoryEmailChangeStore } from "./email-change/memory-email-change-store.js";
export {
  describeEmailCodeStoreContract,
  type EmailCodeStoreUnderTest,
} from "./email-code/email-code-store-contract.js";
export { MemoryEmailCodeStore } from "./email-code/memory-email-code-store.js";
export {
  describeEmailedTokenStoreContract,
  type EmailedTokenStoreUnderTest,
} from "./email-link/emailed-token-store-contract.js";
export { MemoryEmailedTokenStore } from "./email-link/memory-emailed-token-store.js";
export { MemoryPasskeyStore } from "./passkey/memory-passkey-store.js";
export {
  describePasskeyStoreContract,
  type PasskeyStoreUnderTest,
} from "./passkey/passkey-store-contract.js";
export { MemorySecondFactorStore } from "./second-factor/memory-second-factor-store.js";
export {
  describeSecondFactorStoreContract,
  type SecondFactorStoreUnderTest,
} from "./second-factor/second-factor-store-contract.js";
export { MemoryUserStore } from "./users/memory-user-store.js";
export { describeUserStoreContract } from "./users/user-store-contract.js";
