// validation-retry with the official TypeScript MCP SDK: the loop an agent
// runs when invoke_tool says its arguments were wrong.
//
//   node dist/validation-retry.js --url http://127.0.0.1:PORT/mcp [--tool createOrder]
//   node dist/validation-retry.js --command "sezzlee demo --stdio"
//
// It loads a tool, breaks its arguments using only the loaded schema, checks
// the envelope, repairs from `fields` and the schema (never from the prose
// `message`), calls again and expects a 2xx. Exit 0 when every check held,
// 1 when one failed, 2 for bad usage.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

// The invoke_tool result. `status` present: the backend answered.
// `status` absent: sezzlee refused the call before the backend saw it.
interface Envelope {
  status?: number;
  body?: unknown;
  error?: string;
  message?: string;
  retryable?: boolean;
  retryAfterSeconds?: number;
  fields?: { name: string; message: string }[];
}

interface Property {
  type?: string | string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  default?: unknown;
  examples?: unknown[];
}

interface Schema {
  properties?: Record<string, Property>;
  required?: string[];
}

type Args = Record<string, unknown>;

let failed = 0;
function check(name: string, ok: boolean, detail = ""): void {
  console.log(`    ${ok ? "PASS" : "FAIL"} ${name}${ok ? "" : ": " + detail}`);
  if (!ok) failed++;
}

// Every meta-tool result is JSON in one text content block.
async function call(client: Client, name: string, args: Args): Promise<{ payload: any; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  if (content.length !== 1 || content[0].type !== "text") throw new Error(`${name}: not one text block`);
  console.log(`--> ${name} ${JSON.stringify(args)}\n<-- ${content[0].text}${result.isError ? " (isError)" : ""}`);
  return { payload: JSON.parse(content[0].text!), isError: result.isError === true };
}

const typeOf = (p: Property) => (Array.isArray(p.type) ? p.type.find((t) => t !== "null") : p.type);

// A value the property accepts, from its schema alone.
function valid(p: Property): unknown {
  if (p.enum?.length) return p.enum[0];
  if (p.default !== undefined) return p.default;
  if (p.examples?.length) return p.examples[0];
  switch (typeOf(p)) {
    case "integer":
    case "number":
      return p.minimum ?? Math.min(1, p.maximum ?? 1);
    case "boolean":
      return true;
    default:
      return "x".repeat(Math.max(p.minLength ?? 0, 1)).slice(0, p.maxLength ?? Infinity);
  }
}

// The smallest change that satisfies the property's constraints.
function fix(p: Property, v: unknown): unknown {
  if (v === undefined || p.enum?.length) return valid(p);
  if (typeof v === "string" && typeOf(p) === "string") {
    const s = v.padEnd(p.minLength ?? 0, "x").slice(0, p.maxLength ?? Infinity);
    return s.trim() === "" ? valid(p) : s;
  }
  if (typeof v === "number") return Math.min(Math.max(v, p.minimum ?? -Infinity), p.maximum ?? Infinity);
  return valid(p);
}

// Invalid arguments from the schema: value rules the backend judges
// (a string under its minimum length, a number above its maximum), and a
// required property left out when it has no value rule to break.
function breakArgs(schema: Schema): { args: Args; broken: string[] } {
  const args: Args = {};
  const broken: string[] = [];
  for (const [name, p] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(name) ?? false;
    const t = typeOf(p);
    if (t === "string" && (p.minLength ?? 0) > 0 && !p.enum) {
      args[name] = "x".repeat(p.minLength! - 1);
      broken.push(name);
    } else if ((t === "integer" || t === "number") && p.maximum !== undefined) {
      args[name] = p.maximum + 1;
      broken.push(name);
    } else if (required) {
      broken.push(name); // left out
    }
  }
  return { args, broken };
}

// A short, independent leak check: a server's filter may be broken.
const leaks = [
  /^\s*at \S+\(.*\)/m, /File "[^"]+", line \d+/, /\b\w+(Exception|Error):/, /(^|\s)\/(usr|var|etc|home|src|app|opt)\//,
  /[A-Za-z]:\\/, /\b(postgres(ql)?|mysql|mongodb|redis|amqp):\/\//i, /(Password|Pwd)=/i, /\beyJ[\w-]+\.eyJ/,
];

function leaked(e: Envelope): string[] {
  const texts = [e.message ?? "", ...(e.fields ?? []).map((f) => f.message)];
  return leaks.filter((re) => texts.some((t) => re.test(t))).map(String);
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const url = flag("--url");
  const command = flag("--command");
  const tool = flag("--tool") ?? "createOrder";
  if (!url === !command) {
    console.error('usage: validation-retry (--url URL | --command "CMD ARGS") [--tool NAME]');
    return 2;
  }
  let transport: Transport;
  if (url) {
    transport = new StreamableHTTPClientTransport(new URL(url));
  } else {
    const [cmd, ...rest] = command!.split(/\s+/).filter(Boolean);
    transport = new StdioClientTransport({ command: cmd, args: rest, stderr: "inherit" });
  }
  const client = new Client({ name: "sezzlee-agent-example", version: "1.0.0" });
  await client.connect(transport);
  try {
    const loaded = await call(client, "load_tool", { name: tool });
    if (loaded.isError) {
      check(`load_tool ${tool}`, false, JSON.stringify(loaded.payload));
      return 1;
    }
    const schema: Schema = loaded.payload.inputSchema;
    const version: string | undefined = loaded.payload.version;
    const { args, broken } = breakArgs(schema);
    check("the schema has rules the backend judges", broken.length > 0, `${tool} has none`);

    const first = await call(client, "invoke_tool", { name: tool, arguments: args, version });
    const e: Envelope = first.payload;
    check("error is validation_failed", e.error === "validation_failed", String(e.error));
    check("isError is set", first.isError, "isError absent");
    check("status is 4xx (the backend judged it)", typeof e.status === "number" && e.status >= 400 && e.status < 500, String(e.status));
    check("retryable is false", e.retryable === false, String(e.retryable));
    const named = new Set((e.fields ?? []).map((f) => f.name));
    for (const name of broken) check(`fields name ${name}`, named.has(name), [...named].join(", "));
    for (const name of named) {
      const rules = (e.fields ?? []).filter((f) => f.name === name).map((f) => f.message);
      if (rules.length > 1) check(`${name} keeps all ${rules.length} of its rules`, new Set(rules).size === rules.length, rules.join(" | "));
    }
    check("no leak in the envelope", leaked(e).length === 0, leaked(e).join(", "));

    // Repair from the field names and the schema; never from message.
    const repaired: Args = { ...args };
    for (const name of named) {
      const p = schema.properties?.[name];
      if (p) repaired[name] = fix(p, repaired[name]);
      else delete repaired[name];
    }
    const second = await call(client, "invoke_tool", { name: tool, arguments: repaired, version });
    const ok: Envelope = second.payload;
    check("the repaired call returns a 2xx", !second.isError && typeof ok.status === "number" && ok.status >= 200 && ok.status < 300, `${ok.status} ${ok.error ?? ""}`);
  } finally {
    await client.close();
  }
  console.log(failed === 0 ? "validation-retry: PASS" : `validation-retry: FAIL (${failed} failed)`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error("validation-retry:", err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
