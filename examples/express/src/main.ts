// Starts the Express example on PORT and HOST (see settings.ts for the others).
import type { AddressInfo } from "node:net";
import { exampleApp } from "./app.js";
import { readSettings } from "./settings.js";

const settings = readSettings(process.env, "express");
const app = await exampleApp(settings);
const server = app.listen(settings.port, settings.host, () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Express example listening on http://${settings.host}:${port}`);
});
