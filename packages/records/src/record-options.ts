import type { Locale } from "@tessera/core";
import type { AttachmentRules, Model } from "@tessera/fields";
import type { Authenticate, Layout, PageFlash, RouteContext } from "@tessera/http";
import type { HtmlRouteSafety, SessionRouteContext } from "@tessera/session";
import type { ObjectStorage } from "./object-storage.js";
import type { AfterHookName, RecordHooks } from "./record-hooks.js";
import type { RecordScope } from "./record-owner.js";
import type { RecordStore } from "./record-store.js";

/** What the record handlers are built from; `M` types the hooks by the model. */
export interface RecordRoutesOptions<M extends Model = Model> {
  /** The model, from `defineModel` (a generated `src/models/<model>.ts`). */
  readonly model: M;
  readonly store: RecordStore;
  /** Where attachment bytes go; required when the model has attachments. */
  readonly storage?: ObjectStorage | undefined;
  /** Size and type rules per attachment field name; the defaults otherwise. */
  readonly attachmentRules?: Readonly<Record<string, AttachmentRules>> | undefined;
  /** Table of a polymorphic target model (default `pluralize`, as declarations resolve it). */
  readonly tableOf?: ((model: string) => string) | undefined;
  /** Epoch milliseconds for the timestamps (default `Date.now`). */
  readonly clock?: (() => number) | undefined;
  /** Makes `public_id`s (default 128 random bits); inject one in tests. */
  readonly newPublicId?: (() => string) | undefined;
  /**
   * Called when an object could not be deleted after its record was (the answer stays a
   * success: the database is the truth, the object is an orphan). Default: one line on stderr.
   */
  readonly onStorageError?: ((error: unknown, key: string) => void) | undefined;
  /**
   * Largest JSON record body in bytes (default 4 MiB, so a 2,000,000-byte text value fits
   * with room for escapes). A bigger one is a 400 before it is parsed.
   */
  readonly maximumJsonBytes?: number | undefined;
  /**
   * Lifecycle hooks of every write, whichever API it comes through: `before*` may refuse with
   * field messages (a 422), `after*` run once the write committed. See {@link RecordHooks}.
   */
  readonly hooks?: RecordHooks<M> | undefined;
  /**
   * Called when an `after*` hook throws: the write stands and the answer stays a success.
   * Default: one line on stderr.
   */
  readonly onHookError?: ((error: unknown, hook: AfterHookName) => void) | undefined;
  /**
   * Whose records the routes act on and where they live: the signed-in user's (the default,
   * `userRecords()`), or an organization's for a model with `owner: "organization"`
   * (`organizationRecords` of @tessera/organizations/routes, under `/orgs/:slug`).
   */
  readonly scope?: RecordScope | undefined;
}

/**
 * Who a record request acts for: the user a credential stands for. `bearerAuthentication` of
 * @tessera/bearer gives this shape for JSON routes, `sessionAuthentication` of
 * @tessera/session for HTML pages; records are always that user's own.
 */
export interface RecordUser {
  readonly user: { readonly id: number; readonly email?: string | undefined };
}

/**
 * Who a JSON record request comes from, as the routes' `authenticate` found them: a user, whose
 * own records the default scope serves; or, for an organization's model, a caller its scope
 * knows without a user (one of the organization's keys, as `organizationCallers` of
 * @tessera/organizations/routes finds it), which the default scope refuses with a 401.
 */
export interface RecordCaller {
  readonly user?: RecordUser["user"] | undefined;
}

/** Options of the JSON record routes: the model's options and how requests authenticate. */
export interface JsonRecordRoutesOptions<M extends Model = Model> extends RecordRoutesOptions<M> {
  /**
   * A bearer token in practice: `bearerAuthentication(authenticator)`; for an organization's
   * model, `organizationCallers(...)`, which lets its keys in as well.
   */
  readonly authenticate: Authenticate<RecordCaller>;
}

/** What a record handler needs besides the Request: the owner the request authenticated as. */
export interface RecordContext {
  /** The owner's id: the user's, or the organization's for an organization's model. */
  readonly ownerId: number;
  /** Who creates a record of an organization's model (its `created_by`); unused for a user's. */
  readonly createdBy?: number | undefined;
  /** The language of the messages written for this request; English when absent. */
  readonly locale?: Locale | undefined;
}

/**
 * The part of a cookie session the HTML handlers use (an @tessera/session `Session` fits):
 * flashes, and `get`, which the page context reads (whether an operator acts as the user).
 */
export interface FlashSession {
  flash(kind: PageFlash["kind"], message: string): void;
  takeFlashes(): PageFlash[];
  get(name: string): string | undefined;
}

/**
 * What a record handler gets once the owner is known: the route's context (the record's `id`,
 * and `file_id` of one file of many, in `params`) and the owner.
 */
export interface RecordRouteContext extends RouteContext, RecordContext {}

/** What an HTML record handler needs: the signed-in owner and the session for flashes. */
export interface HtmlRecordContext extends RecordRouteContext {
  /** The signed-in user; the layout's header shows the email. */
  readonly user: { readonly id: number; readonly email: string };
  readonly session: FlashSession;
  /** The page's CSP nonce, for the layout's `<script>` tags (Trix's among them). */
  readonly cspNonce: string;
}

/**
 * How HTML forms edit rich_text: a `textarea` of raw HTML, or a `trix` editor (a hidden input
 * carrying the HTML and a `<trix-editor>` bound to it). Trix needs the layout to load its
 * script and stylesheet; without them the field cannot be edited.
 */
export type RichTextEditor = "textarea" | "trix";

/** Options of the HTML pages: the model's options, the page frame, the session and sign-in. */
export interface HtmlRecordRoutesOptions<M extends Model = Model>
  extends RecordRoutesOptions<M>,
    HtmlRouteSafety {
  readonly layout: Layout;
  /**
   * The signed-in user of the cookie session (shown in the header by email), or the redirect
   * to sign-in: `sessionAuthentication(loadUser)` of @tessera/session.
   */
  readonly authenticate: Authenticate<
    { readonly user: { readonly id: number; readonly email: string } },
    SessionRouteContext
  >;
  /** The rich_text input (default `textarea`): see {@link RichTextEditor}. */
  readonly richTextEditor?: RichTextEditor | undefined;
  /**
   * Largest urlencoded form body in bytes (default 4 MiB): such a form carries no files, and
   * every value in it is read before validation. A bigger one is a 413 before it is parsed.
   */
  readonly maximumUrlencodedBytes?: number | undefined;
  /**
   * Largest multipart form body in bytes (default 64 MiB): only these carry files, and they
   * are held in memory whole. A bigger one is a 413 before it is parsed.
   */
  readonly maximumMultipartBytes?: number | undefined;
}
