// client.mjs drives one MCP server of the call-cost harness with the official
// TypeScript MCP client (@modelcontextprotocol/sdk), so the figures also hold
// for a client nobody here wrote.
//
// It opens --clients sessions, warms each up, prints "start", calls the tool
// from every session in a loop until --seconds pass or --max-calls calls are
// made, prints "end", then one JSON line with the results. The harness reads
// the server's CPU time when it sees "start" and "end".
//
//   node client.mjs --url http://127.0.0.1:PORT/mcp --tool get_item \
//       [--wrap invoke_tool] --clients 16 --seconds 10 --max-calls 200000
//
// With --wrap W the call is W({name: tool, arguments: {id}}), the shape of
// sezzlee's invoke_tool; without it the call is tool({id}).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function parseArgs(argv) {
  const o = { clients: 1, seconds: 10, maxCalls: 200000, warmup: 50, wrap: "" };
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i], v = argv[i + 1];
    if (v === undefined) throw new Error(`flag ${k} needs a value`);
    switch (k) {
      case "--url": o.url = v; break;
      case "--tool": o.tool = v; break;
      case "--wrap": o.wrap = v; break;
      case "--clients": o.clients = Number(v); break;
      case "--seconds": o.seconds = Number(v); break;
      case "--max-calls": o.maxCalls = Number(v); break;
      case "--warmup": o.warmup = Number(v); break;
      default: throw new Error(`unknown flag ${k}`);
    }
  }
  if (!o.url || !o.tool) throw new Error("--url and --tool are required");
  const u = new URL(o.url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) {
    throw new Error(`--url must be on loopback, got ${u.hostname}`);
  }
  return o;
}

// request builds the tools/call parameters for item id.
function request(o, id) {
  if (o.wrap) return { name: o.wrap, arguments: { name: o.tool, arguments: { id } } };
  return { name: o.tool, arguments: { id } };
}

// check returns an error message when the result is not the item asked for.
function check(result, id) {
  const text = result?.content?.[0]?.text ?? "";
  if (result?.isError) return `isError result: ${text.slice(0, 300)}`;
  if (!text.includes(`bench-item-${id}`)) return `result lacks bench-item-${id}: ${text.slice(0, 300)}`;
  return "";
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const clients = [];
  for (let c = 0; c < o.clients; c++) {
    const client = new Client({ name: "sezzlee-bench", version: "0.0.1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(o.url)));
    clients.push(client);
  }
  for (const client of clients) {
    for (let i = 0; i < o.warmup; i++) {
      const msg = check(await client.callTool(request(o, i)), i);
      if (msg) throw new Error(`warm-up call failed: ${msg}`);
    }
  }

  const lat = [];
  let calls = 0, errors = 0, firstError = "";
  const deadline = process.hrtime.bigint() + BigInt(Math.round(o.seconds * 1e9));
  process.stdout.write("start\n");
  const t0 = process.hrtime.bigint();
  await Promise.all(clients.map(async (client) => {
    while (calls < o.maxCalls && process.hrtime.bigint() < deadline && errors < 100) {
      const id = calls++ % 1000;
      const s = process.hrtime.bigint();
      let msg;
      try {
        msg = check(await client.callTool(request(o, id)), id);
      } catch (e) {
        msg = String(e?.message ?? e);
      }
      lat.push(Number(process.hrtime.bigint() - s) / 1000);
      if (msg) { errors++; if (!firstError) firstError = msg; }
    }
  }));
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write("end\n");
  for (const client of clients) await client.close();
  lat.sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({
    calls: lat.length, errors, firstError, seconds: elapsed,
    p50us: percentile(lat, 50), p99us: percentile(lat, 99),
  }) + "\n");
}

main().catch((e) => {
  process.stderr.write(`client.mjs: ${e?.stack ?? e}\n`);
  process.exit(1);
});
