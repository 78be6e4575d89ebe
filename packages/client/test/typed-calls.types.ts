// Type test, checked by `npm run typecheck` (never run): calls of a client of the example app's
// generated types (fixtures/app-api.d.ts) and of the account types compile when right, and each
// `@ts-expect-error` line is a wrong field name or type that must not. An unused
// `@ts-expect-error` is itself an error, so a check that stops failing fails the type check.
import { type AccountPaths, createTesseraClient } from "../src/index.js";
import type { paths } from "./fixtures/app-api.js";

/** Calls that compile, and their mistakes that must not. */
export async function recordCalls(): Promise<void> {
  const { api } = createTesseraClient<paths>({ baseUrl: "https://api.example.com" });

  const created = await api.POST("/api/posts", { body: { title: "Typed", status: "draft" } });
  const title: string | undefined = created.data?.title;
  // @ts-expect-error `titel` is no field of a post: a misspelt field is refused
  await api.POST("/api/posts", { body: { titel: "Typed", title: "Typed", status: "draft" } });
  // @ts-expect-error `archived` is not one of the post's statuses
  await api.POST("/api/posts", { body: { title: "Typed", status: "archived" } });
  // @ts-expect-error `published` is a boolean
  await api.POST("/api/posts", { body: { title: "Typed", status: "draft", published: "yes" } });
  // @ts-expect-error `title` is required
  await api.POST("/api/posts", { body: { status: "draft" } });
  // @ts-expect-error a post has no `titel` to read
  created.data?.titel;

  await api.PATCH("/api/posts/{id}", { params: { path: { id: 1 } }, body: { lock_version: 0 } });
  // @ts-expect-error the id of a post is a number
  await api.GET("/api/posts/{id}", { params: { path: { id: "one" } } });
  // @ts-expect-error `limt` is no query parameter of the list
  await api.GET("/api/posts", { params: { query: { limt: 10 } } });
  // @ts-expect-error the app serves no `/api/post`
  await api.GET("/api/post", {});

  await api.POST("/api/notes", { body: { title: "Note", word_count: 2 } });
  // @ts-expect-error `pinned` is a boolean
  await api.POST("/api/notes", { body: { title: "Note", pinned: 1 } });
  void title;
}

/** The account routes' types, the client's default. */
export async function accountCalls(): Promise<void> {
  const { api } = createTesseraClient<AccountPaths>({ baseUrl: "https://api.example.com" });
  const me = await api.GET("/api/auth/me");
  const email: string | undefined = me.data?.email;
  // @ts-expect-error the account has no `mail`
  me.data?.mail;
  // @ts-expect-error enrolling TOTP takes the password
  await api.POST("/api/auth/mfa/totp", { body: { passwd: "secret" } });
  void email;
}
