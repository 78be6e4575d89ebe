// app/[...tessera]/route.ts: every path of the app that no page or more specific route takes.
import { answerRequest } from "../../src/tessera.js";

// better-sqlite3 needs Node.js, not the Edge runtime.
export const runtime = "nodejs";
// Every answer depends on the request (cookies, tokens): never cache one.
export const dynamic = "force-dynamic";

export {
  answerRequest as DELETE,
  answerRequest as GET,
  answerRequest as HEAD,
  answerRequest as PATCH,
  answerRequest as POST,
  answerRequest as PUT,
};
