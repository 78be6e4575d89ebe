import { formatTimestamp } from "@tessera/core";
import type { Layout, PageContext } from "@tessera/http";
import { escapeHtml } from "@tessera/http";
import type { TrackedSession } from "@tessera/session";
import { renderForm } from "./form-fields.js";

/** The signed-in devices pages' HTML. `defaultSessionPages(layout)` gives ours. */
export interface SessionPages {
  /** The list at `/account/sessions`: this device first, then the others, last seen first. */
  sessions(view: {
    context: PageContext;
    sessions: readonly TrackedSession[];
    /** The id of the session of the browser looking at the page. */
    currentId: number;
  }): string;
  /** The 404 of an end action for a session the user does not have. */
  notFound(view: { context: PageContext }): string;
}

function renderTime(epochMs: number): string {
  const text = formatTimestamp(epochMs);
  return `<time datetime="${text.replace(" ", "T")}Z">${text} UTC</time>`;
}

function renderRow(session: TrackedSession, current: boolean): string {
  const headerId = `session-${session.id}`;
  // The button's description names the device, so a screen reader says which one it ends.
  const action = current
    ? "<strong>This device</strong>"
    : `<form method="post" action="/account/sessions/${session.id}/delete">
<button type="submit" aria-describedby="${headerId}">Sign out</button>
</form>`;
  return `<tr${current ? ' aria-current="true"' : ""}>
<th scope="row" id="${headerId}">${escapeHtml(session.browser)}</th>
<td>${session.ipAddress === null ? "Unknown" : escapeHtml(session.ipAddress)}</td>
<td>${renderTime(session.lastSeenAt)}</td>
<td>${action}</td>
</tr>`;
}

/** Our pages for signed-in devices: a table in the app's layout. */
export function defaultSessionPages(layout: Layout): SessionPages {
  return {
    sessions: ({ context, sessions, currentId }) => {
      const others = sessions.filter((session) => session.id !== currentId).length;
      return layout({
        title: "Signed-in devices",
        context,
        mainHtml: `<h1>Signed-in devices</h1>
<p>These browsers are signed in to your account. A device you sign out here is signed out at its next request.</p>
<table class="sessions">
<thead><tr><th scope="col">Browser</th><th scope="col">IP address</th><th scope="col">Last seen</th><th scope="col">Action</th></tr></thead>
<tbody>
${sessions.map((session) => renderRow(session, session.id === currentId)).join("\n")}
</tbody>
</table>
${others > 0 ? renderForm("/account/sessions/others/delete", "", "Sign out of all other sessions") : ""}
<p><a href="/account">Back to your account</a></p>`,
      });
    },

    notFound: ({ context }) =>
      layout({
        title: "Not found",
        context,
        mainHtml: `<h1>Not found</h1>
<p>There is no such session signed in to your account.</p>
<p><a href="/account/sessions">See your signed-in devices</a></p>`,
      }),
  };
}
