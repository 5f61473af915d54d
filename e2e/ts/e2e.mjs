// Drives `sezzlee demo` over streamable HTTP with the official TypeScript
// MCP SDK: search, load, invoke, and the envelope of each error layer.
// Usage: node e2e.mjs MCP_URL. Exits non-zero on the first failed check.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = process.argv[2];
if (!url) {
  console.error("usage: node e2e.mjs MCP_URL");
  process.exit(2);
}

const client = new Client({ name: "sezzlee-e2e-ts", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));

// call returns the meta-tool's JSON and whether isError was set.
async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  assert.equal(res.content.length, 1, `${name}: one content block`);
  assert.equal(res.content[0].type, "text", `${name}: a text block`);
  return { json: JSON.parse(res.content[0].text), isError: res.isError === true, raw: res };
}

const { tools } = await client.listTools();
assert.deepEqual(tools.map((t) => t.name).sort(), ["invoke_tool", "load_tool", "search_tools"]);
for (const t of tools) {
  assert.equal(t.inputSchema.additionalProperties, false, `${t.name}: closed input schema`);
}

const found = await call("search_tools", { query: "place a new order" });
assert.equal(found.isError, false);
assert.equal(found.json.hits[0].name, "createOrder", "search ranks createOrder first");

const def = await call("load_tool", { name: "createOrder" });
assert.equal(def.json.name, "createOrder");
assert.ok(def.json.version, "load_tool gives a version");
assert.ok(!("owner" in def.json.inputSchema.properties), "owner is deferred, not the agent's");

const ok = await call("invoke_tool", {
  name: "createOrder",
  version: def.json.version,
  arguments: { item: "mechanical keyboard", quantity: 2 },
});
assert.equal(ok.isError, false);
assert.equal("isError" in ok.raw, false, "success leaves isError out");
assert.equal(ok.json.status, 201);
assert.equal(ok.json.body.owner, "alice");

const bad = await call("invoke_tool", { name: "createOrder", arguments: { item: "", quantity: 2 } });
assert.equal(bad.isError, true);
assert.equal(bad.json.error, "validation_failed");
assert.equal(bad.json.status, 400, "a backend error carries status");
assert.equal(bad.json.retryable, false);
assert.equal(bad.json.fields.filter((f) => f.name === "item").length, 2, "item fails two rules");

const unknown = await call("invoke_tool", {
  name: "createOrder",
  arguments: { item: "lamp", quantity: 1, colour: "red" },
});
assert.equal(unknown.isError, true);
assert.equal(unknown.json.error, "unknown_argument");
assert.equal("status" in unknown.json, false, "an SDK-side error has no status");
assert.equal(unknown.json.fields[0].name, "colour");

const missing = await call("load_tool", { name: "launchRocket" });
assert.equal(missing.isError, true);
assert.equal(missing.json.error, "unknown_tool");

const leak = await call("invoke_tool", { name: "getOrderInvoice", arguments: { id: 1 } });
assert.equal(leak.isError, true);
assert.equal(leak.json.status, 500);
assert.doesNotMatch(JSON.stringify(leak.json), /Password|InvoiceRenderer|orders-db/, "the leak filter strips secrets");

await client.close();
console.log("ok: search, load, invoke and five error envelopes checked");
