export { SIGNATURE_HEADER, signBody } from "./body-signature.js";
export {
  type PostSignedJsonOptions,
  postSignedJson,
  type SignedCallFailure,
  type SignedCallResponse,
  type SignedCallResult,
} from "./post-signed-json.js";
export {
  type StandardWebhookHeaders,
  type StandardWebhookMessage,
  signStandardWebhook,
} from "./standard-webhook-signature.js";
