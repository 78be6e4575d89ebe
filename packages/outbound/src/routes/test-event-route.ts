import {
  badRequest,
  jsonAnswer,
  notFound,
  type RouteContext,
  type RouteHandler,
  readJsonBody,
  validationFailed,
} from "@tessera/http";
import type { OutboundWebhooks } from "../outbound-webhooks.js";
import type { EndpointOwner } from "./endpoint-owner.js";
import type { EventTypeDescription } from "./event-type-catalog.js";
import { outboundMessages } from "./outbound-messages.js";
import { exampleOfSchema } from "./schema-example.js";

/** The body of a test request: `{"type"}` and nothing else. */
const TEST_BODY_BYTES = 1024;

/**
 * `POST …/webhook_endpoints/{id}/test {"type"}`: sends one example event of that type, its
 * `data` made from the type's schema, to that endpoint alone, through the normal delivery path
 * (signed, retried, logged as an attempt, replayable). 202 `{"message_id","type"}`; a type the
 * app does not send is a 422 on `type`, another owner's endpoint a 404.
 */
export function testEventRoute<C extends RouteContext & { readonly owner: EndpointOwner }>(
  webhooks: OutboundWebhooks<unknown>,
  eventTypes: readonly EventTypeDescription[],
): RouteHandler<C> {
  return async (request, { owner, params, locale }) => {
    const body = await readJsonBody(request, { maximumBytes: TEST_BODY_BYTES });
    if (!body.ok) return body.response;
    const text = outboundMessages.text.bind(outboundMessages, locale);
    for (const field of Object.keys(body.value)) {
      if (field !== "type") return badRequest(text("outbound.unknown_field", { field }));
    }
    const type = body.value.type;
    if (typeof type !== "string") {
      return badRequest(text("outbound.not_a_string", { field: "type" }));
    }
    const described = eventTypes.find((each) => each.name === type);
    if (!described) {
      return validationFailed({ type: [text("outbound.unknown_event")] }, locale);
    }
    const sent = await webhooks.sendTestEvent(
      owner.id,
      params.id ?? "",
      type,
      exampleOfSchema(described.schema),
    );
    if (!sent) return notFound(locale);
    return jsonAnswer({ message_id: sent.messageId, type }, { status: 202, locale });
  };
}
