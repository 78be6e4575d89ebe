// Run by deno-import.test.ts under Deno, bundled with the Tessera sources it imports: creates a
// note through POST /graphql on a memory store and prints the answer.
import { defineModel } from "@tessera/fields";
import { graphqlModel, graphqlRoutes } from "@tessera/graphql";
import { routeRequests } from "@tessera/http";
import { MemoryRecordStore, MemoryRecordTables } from "@tessera/records";

const note = graphqlModel(defineModel("note", ["title:string"]));
const handle = routeRequests(
  graphqlRoutes({
    records: [{ model: note, store: new MemoryRecordStore(new MemoryRecordTables(), note) }],
    authenticate: async () => ({ ok: true, value: { user: { id: 1 } } }),
  }),
);
const response = await handle(
  new Request("https://deno.test/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      query: 'mutation { createNote(input: { title: "From Deno" }) { title } }',
    }),
  }),
);
console.log(await response?.text());
