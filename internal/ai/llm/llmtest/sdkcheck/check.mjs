// Streams a reply from one of hookd's fake LLM servers (llm/llmtest) with
// the vendor's official SDK, and prints what the SDK made of it as JSON:
// the text, the reasoning or thinking, the usage, the models listed, and
// the error if the SDK threw. Usage: node check.mjs openai|anthropic BASEURL [chat|tools|schema]
//
// tools: a turn that calls tools, read from the raw stream and by the
// accumulating helper (the fake is scripted to answer both with the same
// calls), then a second turn sending the calls and their results back.
// schema: structured output as each vendor does it (OpenAI's
// response_format json_schema; Anthropic's forced tool), read by the helper.
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";

const [provider, baseURL, mode = "chat"] = process.argv.slice(2);
const messages = [{ role: "user", content: "why did make fail?" }];
const out = { text: "", reasoning: "", usage: null, helper: null, models: null, error: null, calls: null, after: null, json: null };
const readFile = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
const answerSchema = {
  type: "object",
  properties: { command: { type: "string" }, why: { type: "string" } },
  required: ["command", "why"],
  additionalProperties: false,
};

// Arguments are compared as JSON values: parse and print them again.
const canon = (v) => JSON.stringify(typeof v === "string" ? JSON.parse(v) : v);

async function openaiTools() {
  const client = new OpenAI({ baseURL, apiKey: "sk-llmtest", maxRetries: 0 });
  const tools = [{ type: "function", function: readFile }];
  const stream = await client.chat.completions.create({ model: "gpt-llmtest", messages, tools, stream: true });
  const acc = [];
  let finish = null;
  for await (const chunk of stream) {
    for (const c of chunk.choices) {
      out.text += c.delta.content ?? "";
      for (const tc of c.delta.tool_calls ?? []) {
        const a = (acc[tc.index] ??= { id: "", name: "", arguments: "" });
        if (tc.id) a.id = tc.id;
        if (tc.function?.name) a.name = tc.function.name;
        a.arguments += tc.function?.arguments ?? "";
      }
      finish = c.finish_reason ?? finish;
    }
  }
  out.calls = acc.map((a) => ({ id: a.id, name: a.name, arguments: canon(a.arguments) }));
  // The helper checks each call has its id, type, name and arguments.
  const done = await client.chat.completions.stream({ model: "gpt-llmtest", messages, tools }).finalChatCompletion();
  const msg = done.choices[0].message;
  out.helper = {
    text: msg.content ?? "",
    finish: done.choices[0].finish_reason,
    calls: (msg.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: canon(c.function.arguments) })),
  };
  const results = (msg.tool_calls ?? []).map((c) => ({ role: "tool", tool_call_id: c.id, content: "result of " + c.id }));
  const next = await client.chat.completions
    .stream({ model: "gpt-llmtest", messages: [...messages, msg, ...results], tools })
    .finalChatCompletion();
  out.after = next.choices[0].message.content;
}

async function openaiSchema() {
  const client = new OpenAI({ baseURL, apiKey: "sk-llmtest", maxRetries: 0 });
  const done = await client.chat.completions
    .stream({
      model: "gpt-llmtest", messages,
      response_format: { type: "json_schema", json_schema: { name: "fix", schema: answerSchema, strict: true } },
    })
    .finalChatCompletion();
  out.helper = { text: done.choices[0].message.content, finish: done.choices[0].finish_reason };
  out.json = canon(done.choices[0].message.content);
}

async function anthropicTools() {
  const client = new Anthropic({ baseURL, apiKey: "sk-ant-llmtest", maxRetries: 0 });
  const tools = [{ name: readFile.name, description: readFile.description, input_schema: readFile.parameters }];
  const stream = await client.messages.create({ model: "claude-llmtest", max_tokens: 1024, messages, tools, stream: true });
  const blocks = {};
  out.calls = [];
  for await (const ev of stream) {
    if (ev.type === "content_block_start" && ev.content_block.type === "tool_use")
      blocks[ev.index] = { id: ev.content_block.id, name: ev.content_block.name, json: "" };
    if (ev.type === "content_block_delta" && ev.delta.type === "input_json_delta") blocks[ev.index].json += ev.delta.partial_json;
    if (ev.type === "content_block_delta" && ev.delta.type === "text_delta") out.text += ev.delta.text;
    if (ev.type === "content_block_stop" && blocks[ev.index]) {
      const b = blocks[ev.index];
      out.calls.push({ id: b.id, name: b.name, arguments: canon(b.json) });
    }
  }
  // The helper parses the input_json_delta fragments into each block's input.
  const msg = await client.messages.stream({ model: "claude-llmtest", max_tokens: 1024, messages, tools }).finalMessage();
  const uses = msg.content.filter((b) => b.type === "tool_use");
  out.helper = {
    text: msg.content.filter((b) => b.type === "text").map((b) => b.text).join(""),
    finish: msg.stop_reason,
    calls: uses.map((b) => ({ id: b.id, name: b.name, arguments: canon(b.input) })),
  };
  const results = uses.map((b) => ({ type: "tool_result", tool_use_id: b.id, content: "result of " + b.id }));
  const next = await client.messages
    .stream({
      model: "claude-llmtest", max_tokens: 1024, tools,
      messages: [...messages, { role: "assistant", content: msg.content }, { role: "user", content: results }],
    })
    .finalMessage();
  out.after = next.content.filter((b) => b.type === "text").map((b) => b.text).join("");
}

async function anthropicSchema() {
  const client = new Anthropic({ baseURL, apiKey: "sk-ant-llmtest", maxRetries: 0 });
  const msg = await client.messages
    .stream({
      model: "claude-llmtest", max_tokens: 1024, messages,
      tools: [{ name: "fix", description: "the answer", input_schema: answerSchema }],
      tool_choice: { type: "tool", name: "fix" },
    })
    .finalMessage();
  const use = msg.content.find((b) => b.type === "tool_use");
  out.helper = { finish: msg.stop_reason, calls: [{ id: use.id, name: use.name, arguments: canon(use.input) }] };
  out.json = canon(use.input);
}

async function openai() {
  const client = new OpenAI({ baseURL, apiKey: "sk-llmtest", maxRetries: 0 });
  const stream = await client.chat.completions.create({
    model: "gpt-llmtest",
    messages: [{ role: "system", content: "be brief" }, ...messages],
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) {
    if (chunk.usage) out.usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
    for (const c of chunk.choices) {
      out.text += c.delta.content ?? "";
      out.reasoning += c.delta.reasoning_content ?? c.delta.reasoning ?? "";
    }
  }
  // The helper accumulates the chunks into a completion, checking them.
  const runner = client.chat.completions.stream({
    model: "gpt-llmtest", messages, stream_options: { include_usage: true },
  });
  const done = await runner.finalChatCompletion();
  out.helper = {
    text: done.choices[0].message.content,
    finish: done.choices[0].finish_reason,
    usage: done.usage && { input: done.usage.prompt_tokens, output: done.usage.completion_tokens },
  };
  out.models = [];
  for await (const m of client.models.list()) out.models.push(m.id);
}

async function anthropic() {
  const client = new Anthropic({ baseURL, apiKey: "sk-ant-llmtest", maxRetries: 0 });
  const stream = await client.messages.create({
    model: "claude-llmtest", max_tokens: 1024, system: "be brief", messages, stream: true,
  });
  for await (const ev of stream) {
    if (ev.type === "message_start") out.usage = { input: ev.message.usage.input_tokens, output: ev.message.usage.output_tokens };
    if (ev.type === "message_delta") out.usage.output = ev.usage.output_tokens;
    if (ev.type === "content_block_delta" && ev.delta.type === "text_delta") out.text += ev.delta.text;
    if (ev.type === "content_block_delta" && ev.delta.type === "thinking_delta") out.reasoning += ev.delta.thinking;
  }
  // The helper accumulates the events into a message, checking them.
  const msg = await client.messages.stream({ model: "claude-llmtest", max_tokens: 1024, messages }).finalMessage();
  out.helper = {
    text: msg.content.filter((b) => b.type === "text").map((b) => b.text).join(""),
    reasoning: msg.content.filter((b) => b.type === "thinking").map((b) => b.thinking).join(""),
    signature: msg.content.filter((b) => b.type === "thinking").map((b) => b.signature).join(""),
    finish: msg.stop_reason,
    usage: { input: msg.usage.input_tokens, output: msg.usage.output_tokens },
  };
  out.models = [];
  for await (const m of client.models.list()) out.models.push(m.id);
}

try {
  const run = {
    chat: { openai, anthropic },
    tools: { openai: openaiTools, anthropic: anthropicTools },
    schema: { openai: openaiSchema, anthropic: anthropicSchema },
  }[mode][provider];
  await run();
} catch (e) {
  out.error = { status: e.status ?? null, message: String(e.message ?? e), type: e.constructor?.name ?? null };
}
console.log(JSON.stringify(out));
