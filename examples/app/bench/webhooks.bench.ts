import { startAppProcess } from "./app-process.js";
import { loadSection, loadTargets } from "./load.js";
import { orderDeliveryTarget } from "./order-delivery.js";

// Issue: the example app's deliveries per second on /webhooks/orders, unique event ids.
const secret = "bench-orders-secret";
const app = await startAppProcess({ ORDERS_WEBHOOK_SECRET: secret });
try {
  const results = await loadTargets(app, [
    { name: "GET /api/health (static JSON)", path: "/api/health" },
    orderDeliveryTarget("POST /webhooks/orders, a new order.paid each time", secret),
  ]);
  process.stdout.write(
    loadSection(
      "examples/app: webhook deliveries",
      [
        "autocannon, 10 connections, 3 interleaved rounds of 3 s, app in its own process on a SQLite",
        "file (WAL). Each delivery is a new signed `order.paid` event: verify, claim (one upsert),",
        "the effect's insert, and the mark as processed — three writes.",
      ],
      results,
    ),
  );
} finally {
  await app.stop();
}
