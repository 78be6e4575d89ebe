// Starts the Hono example on Node, on PORT and HOST (see settings.ts for the others).
import { exampleApp } from "./app.js";
import { listen } from "./listen.js";
import { readSettings } from "./settings.js";

const settings = readSettings(process.env, "hono");
const { app, sender } = await exampleApp(settings);
const { address } = await listen(app, settings.port, settings.host);
// Delivers users' webhooks; `await sender.stop()` before closing the database.
sender.start();
console.log(`Hono example listening on http://${settings.host}:${address.port}`);
