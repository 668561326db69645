// Drives `hookd mcp` with the official TypeScript MCP client, and prints
// what the client made of it as JSON: the server's info and instructions,
// the tools it lists (with their schemas), and each call's result, or the
// error the client threw. The client checks each structured result against
// its tool's output schema, as agents do.
//
// Usage: node check.mjs HOOKD CALLS_JSON
// CALLS_JSON is a list of {"name": TOOL, "arguments": {...}}, or of
// {"raw": JSON, "with": {"name": TOOL, ...}}: JSON sent as it is, as one
// line, while the call "with" (optional) is in flight; the result is that
// call's; or of {"resource": URI} (read a resource) or {"prompt": NAME,
// "arguments": {...}} (get a prompt). Each call's time is in its ms. The
// resources, resource templates and prompts listed are in resources,
// resourceTemplates and prompts (when the server has them). hookd runs
// with this process's environment (the test's isolated HOME and XDG_*).
// Lines the client could not read are in clientErrors.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [hookd, callsJSON = "[]"] = process.argv.slice(2);
const calls = JSON.parse(callsJSON);
const out = { server: null, instructions: null, capabilities: null, tools: null, calls: [], stderr: "", initMs: null, clientErrors: [] };

const transport = new StdioClientTransport({ command: hookd, args: ["mcp"], env: process.env, stderr: "pipe" });
transport.stderr?.on("data", (d) => { out.stderr += d.toString(); });
const client = new Client({ name: "hookd-sdkcheck", version: "1.0.0" });
client.onerror = (e) => { out.clientErrors.push(String(e.message ?? e)); };
try {
  const t0 = performance.now();
  await client.connect(transport);
  out.initMs = performance.now() - t0;
  out.server = client.getServerVersion();
  out.instructions = client.getInstructions() ?? null;
  out.capabilities = client.getServerCapabilities() ?? null;
  out.tools = (await client.listTools()).tools;
  if (out.capabilities?.resources) {
    out.resources = (await client.listResources()).resources;
    out.resourceTemplates = (await client.listResourceTemplates()).resourceTemplates;
  }
  if (out.capabilities?.prompts) {
    out.prompts = (await client.listPrompts()).prompts;
  }
  for (const c of calls) {
    if (c.resource !== undefined || c.prompt !== undefined) {
      const t0 = performance.now();
      try {
        const result = c.resource !== undefined ? await client.readResource({ uri: c.resource })
          : await client.getPrompt({ name: c.prompt, arguments: c.arguments ?? {} });
        out.calls.push({ name: c.resource ?? c.prompt, result, ms: performance.now() - t0 });
      } catch (e) {
        out.calls.push({ name: c.resource ?? c.prompt, error: { code: e.code ?? null, message: String(e.message ?? e) }, ms: performance.now() - t0 });
      }
      continue;
    }
    if (c.raw !== undefined) {
      // A raw line (JSON-RPC batch, say) sent through the client's own
      // transport while the call c.with, if any, is in flight.
      const inFlight = c.with ? client.callTool({ name: c.with.name, arguments: c.with.arguments ?? {} }) : null;
      await transport.send(c.raw);
      try {
        out.calls.push({ name: "raw", result: inFlight ? await inFlight : null });
      } catch (e) {
        out.calls.push({ name: "raw", error: { code: e.code ?? null, message: String(e.message ?? e) } });
      }
      continue;
    }
    const t0 = performance.now();
    try {
      out.calls.push({ name: c.name, result: await client.callTool({ name: c.name, arguments: c.arguments ?? {} }), ms: performance.now() - t0 });
    } catch (e) {
      out.calls.push({ name: c.name, error: { code: e.code ?? null, message: String(e.message ?? e) }, ms: performance.now() - t0 });
    }
  }
} catch (e) {
  out.fatal = String(e.stack ?? e);
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + "\n");
