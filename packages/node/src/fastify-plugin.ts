import type { IncomingMessage, ServerResponse } from "node:http";
import type { Route, RouteContext } from "@tessera/http";
import { type NodeHandlerOptions, toNodeHandler } from "./node-handler.js";

/**
 * The part of a Fastify 5 instance the plugin uses, written out so that this package needs no
 * Fastify dependency (a Fastify instance fits it).
 */
export interface FastifyScope {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    contentType: string,
    parser: (request: unknown, payload: unknown, done: (error: null) => void) => void,
  ): void;
  route(options: {
    method: string;
    url: string;
    handler: (
      request: { readonly raw: IncomingMessage },
      reply: { readonly raw: ServerResponse; hijack(): void },
    ) => void;
  }): unknown;
}

/**
 * The routes as a Fastify plugin: `await fastify.register(fastifyRoutes(routes))`. Inside its
 * scope Fastify parses no body (content-type parsers are scoped, so the app's other routes keep
 * theirs) and each route gets Fastify's raw request, as `toNodeHandler` serves it.
 */
export function fastifyRoutes(
  routes: readonly Route<RouteContext>[],
  options: NodeHandlerOptions = {},
): (scope: FastifyScope) => Promise<void> {
  const handler = toNodeHandler(routes, options);
  return async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
    for (const route of routes) {
      scope.route({
        method: route.method,
        url: route.path,
        handler: (request, reply) => {
          reply.hijack();
          handler(request.raw, reply.raw);
        },
      });
    }
  };
}
