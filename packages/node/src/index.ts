export { type FastifyScope, fastifyRoutes } from "./fastify-plugin.js";
export {
  BODY_ALREADY_READ_MESSAGE,
  DEFAULT_STREAMED_BODY_BYTES,
  type NodeHandler,
  type NodeHandlerOptions,
  toNodeHandler,
} from "./node-handler.js";
export { type NodeRequestRefusal, type StreamedBody, webRequest } from "./node-request.js";
export { writeResponse } from "./node-response.js";
export {
  type NodeServerBindings,
  type NodeServerFetch,
  settleUnreadBodies,
} from "./node-server-fetch.js";
export { type NodeIncoming, toRequest } from "./request-head.js";
export {
  DRAIN_LIMIT_BYTES,
  LINGER_LIMIT_BYTES,
  LINGER_MS,
  settleUnreadBody,
} from "./unread-body.js";
