import { html, joinHtml, type MessageParams, type SafeHtml } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import type { LoggedAttempt } from "../outbound-store.js";
import type { WebhookEndpoint } from "../webhook-endpoint.js";
import { type OutboundMessageId, outboundMessages } from "./outbound-messages.js";

/** One endpoint on the page, with its attempts (newest first, the last 24 hours' included). */
export interface EndpointOnPage {
  readonly endpoint: WebhookEndpoint;
  readonly attempts: readonly LoggedAttempt[];
}

const HOUR_MS = 3_600_000;

function say(context: PageContext, id: OutboundMessageId, params?: MessageParams): SafeHtml {
  return html`${outboundMessages.text(context.locale, id, params)}`;
}

/** 24 hourly bars, succeeded (green) stacked on failed (red): SVG attributes, no script or CSS. */
function renderChart(context: PageContext, attempts: readonly LoggedAttempt[], now: number) {
  const hours = Array.from({ length: 24 }, () => ({ succeeded: 0, failed: 0 }));
  for (const attempt of attempts) {
    const hoursAgo = Math.floor((now - attempt.createdAt) / HOUR_MS);
    if (hoursAgo >= 0 && hoursAgo < 24) hours[23 - hoursAgo]![attempt.status]++;
  }
  const highest = Math.max(1, ...hours.map((hour) => hour.succeeded + hour.failed));
  const bars = hours.map((hour, index) => {
    const failed = (hour.failed / highest) * 40;
    const succeeded = (hour.succeeded / highest) * 40;
    const x = index * 10;
    return html`<rect x="${x}" y="${40 - failed}" width="8" height="${failed}" fill="#c0392b"/><rect x="${x}" y="${40 - failed - succeeded}" width="8" height="${succeeded}" fill="#27ae60"/>`;
  });
  return html`<svg class="webhook-chart" role="img" viewBox="0 0 240 40" width="240" height="40"><title>${say(context, "outbound.chart_label")}</title>${bars}</svg>`;
}

function renderRate(context: PageContext, attempts: readonly LoggedAttempt[]) {
  if (attempts.length === 0) return say(context, "outbound.no_attempts_24h");
  const succeeded = attempts.filter((attempt) => attempt.status === "succeeded").length;
  const rate = `${Math.round((succeeded / attempts.length) * 100)} %`;
  return say(context, "outbound.success_rate", { rate, count: attempts.length });
}

function button(path: string, label: SafeHtml) {
  return html`<form method="post" action="${path}" class="inline"><button type="submit">${label}</button></form>`;
}

function renderAttempts(
  context: PageContext,
  attempts: readonly LoggedAttempt[],
  pagePath: string,
) {
  if (attempts.length === 0) return html`<p>${say(context, "outbound.no_attempts")}</p>`;
  const rows = attempts.slice(0, 20).map(
    (attempt) => html`<tr>
<td>${new Date(attempt.createdAt).toISOString()}</td>
<td>${attempt.eventType}</td>
<td>${attempt.attempt}</td>
<td>${say(context, attempt.status === "succeeded" ? "outbound.status_succeeded" : "outbound.status_failed")}${attempt.responseStatus !== null && html` (${attempt.responseStatus})`}</td>
<td><code>${attempt.response.slice(0, 200)}</code></td>
<td>${button(`${pagePath}/messages/${attempt.messageId}/replay`, say(context, "outbound.replay_button"))}</td>
</tr>`,
  );
  return html`<table><thead><tr><th>${say(context, "outbound.column_time")}</th><th>${say(context, "outbound.column_event")}</th><th>${say(context, "outbound.column_attempt")}</th><th>${say(context, "outbound.column_status")}</th><th>${say(context, "outbound.column_answer")}</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function renderEndpoint(
  context: PageContext,
  { endpoint, attempts }: EndpointOnPage,
  now: number,
  pagePath: string,
) {
  const base = `${pagePath}/${endpoint.id}`;
  const lastDay = attempts.filter((attempt) => now - attempt.createdAt < 24 * HOUR_MS);
  const events =
    endpoint.eventTypes.length === 0
      ? say(context, "outbound.all_events")
      : joinHtml(endpoint.eventTypes, ", ");
  const options = [
    endpoint.headerNames.length > 0 &&
      say(context, "outbound.custom_headers", { names: endpoint.headerNames.join(", ") }),
    endpoint.rateLimit !== null &&
      say(context, "outbound.rate_limit", { rate: endpoint.rateLimit }),
  ].map((option) => option && html` · ${option}`);
  return html`<section class="webhook-endpoint">
<h2><code>${endpoint.url}</code></h2>
<p>${endpoint.description} · ${events} · ${say(context, endpoint.enabled ? "outbound.enabled" : "outbound.disabled")}${options}</p>
<p>${renderRate(context, lastDay)}</p>
${renderChart(context, lastDay, now)}
<p>${button(`${base}/${endpoint.enabled ? "disable" : "enable"}`, say(context, endpoint.enabled ? "outbound.disable_button" : "outbound.enable_button"))}
${button(`${base}/rotate_secret`, say(context, "outbound.rotate_button"))}
${button(`${base}/delete`, say(context, "outbound.remove_button"))}</p>
<h3>${say(context, "outbound.attempts_heading")}</h3>
${renderAttempts(context, attempts, pagePath)}
</section>`;
}

/** What the add form shows again after a refusal: the values and the field messages. */
export interface EndpointForm {
  readonly url: string;
  readonly description: string;
  readonly events: readonly string[];
  readonly errors: Readonly<Record<string, readonly string[]>>;
}

/**
 * The webhooks page (`pagePath`, `/account/webhooks`): the owner's endpoints with their last
 * day and attempts, and the add form, in the app's `layout`.
 */
export function renderWebhooksPage(page: {
  readonly layout: Layout;
  readonly pagePath: string;
  readonly context: PageContext;
  readonly endpoints: readonly EndpointOnPage[];
  readonly eventTypes: readonly string[];
  readonly form: EndpointForm;
  readonly now: number;
}): string {
  const { context, form } = page;
  const errors = Object.entries(form.errors).map(
    ([field, messages]) => html`<li>${field}: ${joinHtml(messages, ", ")}</li>`,
  );
  const checkboxes = page.eventTypes.map(
    (type) =>
      html`<label><input type="checkbox" name="events" value="${type}"${form.events.includes(type) && html` checked`}> ${type}</label>`,
  );
  const endpoints =
    page.endpoints.length === 0
      ? html`<p>${say(context, "outbound.no_endpoints")}</p>`
      : joinHtml(
          page.endpoints.map((each) => renderEndpoint(context, each, page.now, page.pagePath)),
          "\n",
        );
  const main = html`<h1>${say(context, "outbound.page_title")}</h1>
<p>${say(context, "outbound.page_intro", { events: page.eventTypes.join(", ") })}</p>
${endpoints}
<h2>${say(context, "outbound.add_heading")}</h2>
${errors.length > 0 && html`<ul class="errors">${errors}</ul>`}
<form method="post" action="${page.pagePath}">
<p><label>${say(context, "outbound.url_label")} <input type="url" name="url" required value="${form.url}"></label></p>
<p><label>${say(context, "outbound.description_label")} <input type="text" name="description" maxlength="1000" value="${form.description}"></label></p>
<fieldset><legend>${say(context, "outbound.events_label")}</legend>${joinHtml(checkboxes, " ")}</fieldset>
<p><button type="submit">${say(context, "outbound.add_button")}</button></p>
</form>
<p><a href="/account">${say(context, "outbound.back_to_account")}</a></p>`;
  return page.layout({
    title: outboundMessages.text(context.locale, "outbound.page_title"),
    mainHtml: main.toString(),
    context,
  });
}
