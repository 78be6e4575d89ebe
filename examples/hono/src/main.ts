// Starts the Hono example on Node, on PORT and HOST (see settings.ts for the others).
import { serve } from "@hono/node-server";
import { exampleApp } from "./app.js";
import { readSettings } from "./settings.js";

const settings = readSettings(process.env, "hono");
const app = await exampleApp(settings);
serve({ fetch: app.fetch, port: settings.port, hostname: settings.host }, (info) => {
  console.log(`Hono example listening on http://${settings.host}:${info.port}`);
});
