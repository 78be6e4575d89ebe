/** The English texts of the signed-in devices page; `accountMessages` holds them all. */
export const devicesTexts = {
  "accounts.session_ended": "That device is signed out.",
  "accounts.other_sessions_ended": "Signed out of {count} other session(s).",
  "accounts.sessions.title": "Signed-in devices",
  "accounts.sessions.intro":
    "These browsers are signed in to your account. A device you sign out here is signed out at its next request.",
  "accounts.sessions.browser": "Browser",
  "accounts.sessions.ip_address": "IP address",
  "accounts.sessions.last_seen": "Last seen",
  "accounts.sessions.signed_in_with": "Signed in with",
  "accounts.sessions.factors_unknown": "Not recorded",
  "accounts.sessions.action": "Action",
  "accounts.sessions.this_device": "This device",
  "accounts.sessions.sign_out": "Sign out",
  "accounts.sessions.unknown_address": "Unknown",
  "accounts.sessions.back_to_account": "Back to your account",
  "accounts.sessions.not_found": "There is no such session signed in to your account.",
  "accounts.sessions.see_devices": "See your signed-in devices",
  "accounts.app_session_ended": "The app was signed out.",
  "accounts.sessions.apps_title": "Apps",
  "accounts.sessions.apps_intro":
    "These apps are signed in to your account, and stay signed in until you sign them out here. An app you sign out must sign in again.",
  "accounts.sessions.app": "App",
  "accounts.sessions.unknown_app": "Unknown app",
  "accounts.sessions.signed_in_at": "Signed in",
  "accounts.sessions.last_used": "Last used",
} as const;
