// Streams a reply from one of hookd's fake LLM servers (llm/llmtest) with
// the vendor's official SDK, and prints what the SDK made of it as JSON:
// the text, the reasoning or thinking, the usage, the models listed, and
// the error if the SDK threw. Usage: node check.mjs openai|anthropic BASEURL
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";

const [provider, baseURL] = process.argv.slice(2);
const messages = [{ role: "user", content: "why did make fail?" }];
const out = { text: "", reasoning: "", usage: null, helper: null, models: null, error: null };

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
  await { openai, anthropic }[provider]();
} catch (e) {
  out.error = { status: e.status ?? null, message: String(e.message ?? e), type: e.constructor?.name ?? null };
}
console.log(JSON.stringify(out));
