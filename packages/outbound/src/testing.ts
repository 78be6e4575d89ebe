// The contract every outbound store passes (`@tessera/outbound/testing`), for a store of your own.
export {
  describeOutboundStoreContract,
  type OutboundStoreUnderTest,
} from "./testing/outbound-store-contract.js";
