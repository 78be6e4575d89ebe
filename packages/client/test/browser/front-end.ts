// A front end's page script, bundled by esbuild for the Chromium suite: it imports
// @tessera/client as an app's bundle does, keeps the tokens in sessionStorage, and offers the
// suite each step as `window.frontEnd` (the test drives the page; the page calls the service).
import { createTesseraClient, type TokenHolder, type TokenPair } from "@tessera/client";
import type { paths } from "../fixtures/app-api.js";

/** What the page offers the suite. */
export interface FrontEnd {
  signUp(email: string, password: string): Promise<number>;
  signIn(email: string, password: string): Promise<boolean>;
  createPost(title: string): Promise<{ status: number; title: string | undefined }>;
  postTitles(): Promise<string[]>;
  me(): Promise<string | undefined>;
  registerPasskey(name: string): Promise<string>;
  signInWithPasskey(): Promise<boolean>;
  signOut(): Promise<void>;
}

declare global {
  interface Window {
    frontEnd: FrontEnd;
  }
}

/** The pair in this tab's sessionStorage: it outlives a reload, not the tab. */
const sessionTokens: TokenHolder = {
  get: () => {
    const stored = sessionStorage.getItem("tessera-tokens");
    return stored === null ? undefined : (JSON.parse(stored) as TokenPair);
  },
  set: (pair) => sessionStorage.setItem("tessera-tokens", JSON.stringify(pair)),
  clear: () => sessionStorage.removeItem("tessera-tokens"),
};

const client = createTesseraClient<paths>({
  baseUrl: document.documentElement.dataset.api ?? location.origin,
  tokens: sessionTokens,
});

window.frontEnd = {
  async signUp(email, password) {
    return (await client.signUp({ email, password })).id;
  },
  async signIn(email, password) {
    return (await client.signIn({ email, password })).signedIn;
  },
  async createPost(title) {
    const created = await client.api.POST("/api/posts", { body: { title, status: "draft" } });
    return { status: created.response.status, title: created.data?.title };
  },
  async postTitles() {
    const listed = await client.api.GET("/api/posts");
    return listed.data?.map((post) => post.title) ?? [];
  },
  async me() {
    return (await client.api.GET("/api/auth/me")).data?.email;
  },
  async registerPasskey(name) {
    return (await client.registerPasskey(name)).name;
  },
  async signInWithPasskey() {
    return (await client.signInWithPasskey()).signedIn;
  },
  signOut: () => client.signOut(),
};
