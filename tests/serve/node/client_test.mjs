// The official OpenAI Node client against `llmtriage sim serve` (BASE_URL = http://127.0.0.1:PORT).
// Streams a chat completion and a completion; checks text, usage and finish_reason.
// Prints one JSON line with what it saw; exits 1 on the first failed check.
import OpenAI from "openai";

const base = process.env.BASE_URL;
const model = process.env.MODEL;
if (!base || !model) {
  console.error("BASE_URL and MODEL must be set");
  process.exit(2);
}
const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "sk-not-a-real-key", maxRetries: 0, timeout: 60000 });

function check(cond, what) {
  if (!cond) {
    console.error(`FAILED: ${what}`);
    process.exit(1);
  }
}

const models = await client.models.list();
check(models.data.some((m) => m.id === model), `model ${model} listed`);

// Chat completion, streamed, with usage in the last chunk.
let chatText = "";
let chatFinish = null;
let chatUsage = null;
let chatChunks = 0;
const chat = await client.chat.completions.create({
  model,
  messages: [{ role: "user", content: "Write a short poem about queues." }],
  max_tokens: 16,
  stream: true,
  stream_options: { include_usage: true },
  ignore_eos: true,
});
for await (const chunk of chat) {
  chatChunks++;
  if (chunk.usage) chatUsage = chunk.usage;
  for (const c of chunk.choices) {
    if (c.delta?.content) chatText += c.delta.content;
    if (c.finish_reason) chatFinish = c.finish_reason;
  }
}
check(chatText.length === 64, `chat text is 16 stand-in tokens of 4 bytes (got ${chatText.length} bytes)`);
check(chatFinish === "length", `chat finish_reason length (got ${chatFinish})`);
check(chatUsage && chatUsage.completion_tokens === 16, `chat usage.completion_tokens 16 (got ${JSON.stringify(chatUsage)})`);
check(chatUsage.total_tokens === chatUsage.prompt_tokens + 16, "chat usage total = prompt + completion");

// Completion, streamed.
let text = "";
let finish = null;
let usage = null;
const comp = await client.completions.create({
  model,
  prompt: "Once upon a time",
  max_tokens: 10,
  stream: true,
  stream_options: { include_usage: true },
  ignore_eos: true,
});
for await (const chunk of comp) {
  if (chunk.usage) usage = chunk.usage;
  for (const c of chunk.choices) {
    text += c.text ?? "";
    if (c.finish_reason) finish = c.finish_reason;
  }
}
check(text.length === 40, `completion text is 10 tokens (got ${text.length} bytes)`);
check(finish === "length", `completion finish_reason length (got ${finish})`);
check(usage && usage.prompt_tokens === 4 && usage.completion_tokens === 10, `completion usage (got ${JSON.stringify(usage)})`);

// An error comes back as the client's typed error with the server's status and message.
let status = 0;
let message = "";
try {
  await client.completions.create({ model, prompt: "x", max_tokens: 1000000 });
} catch (e) {
  status = e.status;
  message = e.message;
}
check(status === 400, `over max_model_len gives 400 (got ${status})`);
check(message.includes("maximum context length"), `error message from the server (got ${message})`);

console.log(JSON.stringify({ ok: true, chatChunks, chatText, chatUsage, text, usage, status }));
