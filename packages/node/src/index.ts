export { type FastifyScope, fastifyRoutes } from "./fastify-plugin.js";
export {
  BODY_ALREADY_READ_MESSAGE,
  DEFAULT_MAXIMUM_BODY_BYTES,
  type NodeHandler,
  type NodeHandlerOptions,
  toNodeHandler,
} from "./node-handler.js";
export { type NodeRequestRefusal, webRequest } from "./node-request.js";
export { writeResponse } from "./node-response.js";
