import { defineMessages, type MessageIdOf } from "@tessera/core";

/**
 * The texts of the outbound webhook routes and pages, in English: the JSON routes' error
 * messages, the `/account/webhooks` page and the mail sent when an endpoint is disabled.
 */
export const outboundMessages = defineMessages({
  "outbound.body_not_object": "The body must be a JSON object.",
  "outbound.unknown_field": "Unknown field {field}.",
  "outbound.not_a_string": "{field} must be a string.",
  "outbound.not_a_boolean": "{field} must be true or false.",
  "outbound.events_not_list": "events must be a list of event names.",
  "outbound.headers_not_object": "headers must be an object of header names to text values.",
  "outbound.not_a_number": "{field} must be a number or null.",
  "outbound.header_name_invalid":
    "has a name that is not 1 to 64 letters, digits or ! # $ % & ' * + - . ^ _ ` | ~",
  "outbound.header_name_reserved": "has a name that cannot be set",
  "outbound.header_name_duplicate": "has the same name twice",
  "outbound.header_value_invalid":
    "has a value that is not up to 1,024 printable ASCII characters without spaces around",
  "outbound.too_many_headers": "has more than 10 headers",
  "outbound.rate_limit_invalid": "must be a whole number of deliveries a second from 1 to 10,000",
  "outbound.url_not_allowed": "is not allowed",
  "outbound.url_not_plain": "must be written as http(s)://host/path, with no user name or password",
  "outbound.endpoint_limit_reached":
    "You have {maximum} webhook endpoints, the most allowed: remove one to add another.",
  "outbound.unknown_event": "is not an event this app sends",
  "outbound.nul_character": "{field} must not contain NUL characters.",
  "outbound.message_not_found": "No such webhook message.",
  "outbound.page_title": "Webhooks",
  "outbound.page_intro":
    "Each endpoint receives the events it asks for ({events}) as signed POST requests.",
  "outbound.no_endpoints": "No endpoints yet.",
  "outbound.add_heading": "Add an endpoint",
  "outbound.url_label": "URL",
  "outbound.description_label": "Description",
  "outbound.events_label": "Events (none checked: every event)",
  "outbound.add_button": "Add endpoint",
  "outbound.enabled": "Enabled",
  "outbound.disabled": "Disabled",
  "outbound.enable_button": "Enable",
  "outbound.disable_button": "Disable",
  "outbound.rotate_button": "Rotate secret",
  "outbound.remove_button": "Remove",
  "outbound.replay_button": "Replay",
  "outbound.all_events": "every event",
  "outbound.custom_headers": "custom headers: {names}",
  "outbound.rate_limit": "at most {rate} deliveries a second",
  "outbound.success_rate": "{rate} of {count} attempts succeeded in the last 24 hours",
  "outbound.no_attempts_24h": "No attempts in the last 24 hours",
  "outbound.chart_label": "Attempts per hour over the last 24 hours: succeeded and failed",
  "outbound.attempts_heading": "Recent attempts",
  "outbound.no_attempts": "No attempts yet.",
  "outbound.column_time": "Time",
  "outbound.column_event": "Event",
  "outbound.column_attempt": "Attempt",
  "outbound.column_status": "Status",
  "outbound.column_answer": "Answer",
  "outbound.status_succeeded": "succeeded",
  "outbound.status_failed": "failed",
  "outbound.secret_shown_once": "The endpoint's signing secret, shown only this once: {secret}",
  "outbound.added": "The endpoint is added.",
  "outbound.updated": "The endpoint is updated.",
  "outbound.removed": "The endpoint is removed.",
  "outbound.replayed": "The message is sent again.",
  "outbound.replay_pending":
    "A delivery of this message is still waiting to be made: it is not sent a second time.",
  "outbound.not_found": "That endpoint does not exist.",
  "outbound.back_to_account": "Back to your account",
  "outbound.account_link": "Webhooks",
  "outbound.disabled_mail_subject": "Your webhook endpoint was disabled",
  "outbound.disabled_mail_text":
    "Every delivery to your webhook endpoint {url} has failed for 5 days, so it is disabled and receives nothing until you enable it again on {page}.",
});

/** An id of {@link outboundMessages}. */
export type OutboundMessageId = MessageIdOf<typeof outboundMessages>;
