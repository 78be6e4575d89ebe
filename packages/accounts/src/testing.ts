// The test kit of @tessera/accounts (`@tessera/accounts/testing`): the memory stores and the
// contracts a user store, an emailed-token store, an emailed-code store, an email change store,
// a second-factor store and a passkey store owe their callers.
// It imports vitest (an optional peer): load it from test files only, never from an app.
export { MemoryEmailChangeStore } from "./email-change/memory-email-change-store.js";
export { MemoryEmailCodeStore } from "./memory-email-code-store.js";
export { MemoryEmailedTokenStore } from "./memory-emailed-token-store.js";
export { MemoryPasskeyStore } from "./memory-passkey-store.js";
export { MemorySecondFactorStore } from "./memory-second-factor-store.js";
export { MemoryUserStore } from "./memory-user-store.js";
export {
  describeEmailChangeStoreContract,
  type EmailChangeStoreUnderTest,
} from "./testing/email-change-store-contract.js";
export {
  describeEmailCodeStoreContract,
  type EmailCodeStoreUnderTest,
} from "./testing/email-code-store-contract.js";
export {
  describeEmailedTokenStoreContract,
  type EmailedTokenStoreUnderTest,
} from "./testing/emailed-token-store-contract.js";
export {
  describePasskeyStoreContract,
  type PasskeyStoreUnderTest,
} from "./testing/passkey-store-contract.js";
export {
  describeSecondFactorStoreContract,
  type SecondFactorStoreUnderTest,
} from "./testing/second-factor-store-contract.js";
export { describeUserStoreContract } from "./testing/user-store-contract.js";
