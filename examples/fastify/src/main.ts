// Starts the Fastify example on PORT and HOST (see settings.ts for the others).
import { exampleApp } from "./app.js";
import { readSettings } from "./settings.js";

const settings = readSettings(process.env, "fastify");
const app = await exampleApp(settings);
const address = await app.listen({ port: settings.port, host: settings.host });
console.log(`Fastify example listening on ${address}`);
