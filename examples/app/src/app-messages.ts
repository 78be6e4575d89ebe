import { defineMessages, type MessageIdOf } from "@tessera/core";

/**
 * The example app's own texts for people (its frame, home page and error page), in English.
 * An id ending in `_html` holds markup and goes into pages as it is: catalogs are the app's
 * own code, never user input.
 */
export const appMessages = defineMessages({
  "app.brand": "Tessera example",
  "app.title_suffix": "{title} · Tessera example",
  "app.account_navigation": "Account",
  "app.posts": "Posts",
  "app.comments": "Comments",
  "app.labels": "Labels",
  "app.reactions": "Reactions",
  "app.notes": "Notes",
  "app.projects": "Projects",
  "app.log_out": "Log out",
  "app.log_in": "Log in",
  "app.sign_up": "Sign up",
  "app.home_title": "Home",
  "app.home_heading": "Tessera example app",
  "app.home_intro":
    "The whole Tessera service in one process on SQLite: accounts, typed records, webhooks and external jobs, served as HTML pages and as a JSON API.",
  "app.home_signed_in_html": 'You are signed in. See <a href="/account">your account</a>.',
  "app.home_visitor_html": '<a href="/signup">Sign up</a> or <a href="/login">log in</a> to start.',
  "app.error_title": "Something went wrong",
  "app.error_text": "The server could not finish this request. Please try again in a moment.",
  "app.error_back": "Back to the home page",
});

/** An id of {@link appMessages}. */
export type AppMessageId = MessageIdOf<typeof appMessages>;
