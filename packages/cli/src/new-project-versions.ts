/**
 * The npm packages a project of `tessera new` depends on, at the ranges this repository's own
 * packages and examples use (test/new-project.test.ts holds them to it). better-sqlite3 stays on
 * 12: 13 needs Node 22, and the project supports Node 20.19.
 */
export const NPM_RANGES = {
  hono: "^4.13.19",
  "@hono/node-server": "^2.1.8",
  express: "^5.1.0",
  fastify: "^5.6.0",
  "better-sqlite3": "^12.6.2",
  pg: "^8.23.1",
  typescript: "^5.9.3",
  tsx: "^4.23.15",
  vitest: "^4.1.12",
  "@types/node": "^20.19.43",
  "@types/express": "^5.0.3",
  "@types/better-sqlite3": "^9.6.0",
  "@types/pg": "^8.23.1",
} as const;
