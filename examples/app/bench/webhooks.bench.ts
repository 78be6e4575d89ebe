import { signBody } from "@tessera/signer";
import { startAppProcess } from "./app-process.js";
import { loadSection, loadTargets } from "./load.js";

// Issue: the example app's deliveries per second on /webhooks/orders, unique event ids.
const secret = "bench-orders-secret";
const app = await startAppProcess({ ORDERS_WEBHOOK_SECRET: secret });
try {
  let sequence = 0;
  const results = await loadTargets(app.url, [
    { name: "GET /api/health (static JSON)", path: "/api/health" },
    {
      name: "POST /webhooks/orders, a new order.paid each time",
      path: "/webhooks/orders",
      method: "POST",
      headers: { "content-type": "application/json" },
      eachRequest: () => {
        sequence += 1;
        const body = JSON.stringify({
          id: `evt_${sequence}`,
          type: "order.paid",
          data: { order_id: `order_${sequence}`, amount: 19.99 },
        });
        return { body, headers: { "x-signature": signBody(body, secret) } };
      },
    },
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
