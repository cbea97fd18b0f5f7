// Load driver for bench/serve.sh: opens N concurrent streaming completions against
// `llmtriage sim serve` (Node's built-in http, one socket per stream) and reports errors,
// dropped streams and token counts. Usage: node serve_streams.mjs URL N MAX_TOKENS
import http from "node:http";

const [url, nArg, tokArg] = process.argv.slice(2);
const n = Number(nArg ?? 1000);
const maxTokens = Number(tokArg ?? 200);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const body = JSON.stringify({ prompt: "benchmark prompt of a few tokens", max_tokens: maxTokens, ignore_eos: true, stream: true });
const u = new URL("/v1/completions", url);

let ok = 0, httpErrors = 0, dropped = 0, tokens = 0, open = 0, maxOpen = 0;
const t0 = Date.now();
function one() {
  return new Promise((resolve) => {
    const req = http.request({ hostname: u.hostname, port: u.port, path: u.pathname, method: "POST", agent,
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } }, (res) => {
      if (res.statusCode !== 200) { httpErrors++; res.resume(); res.on("end", resolve); return; }
      open++; maxOpen = Math.max(maxOpen, open);
      let buf = "", done = false, got = 0;
      res.setEncoding("utf8");
      res.on("data", (d) => {
        buf += d;
        let k;
        while ((k = buf.indexOf("\n\n")) >= 0) {
          const ev = buf.slice(0, k); buf = buf.slice(k + 2);
          if (ev === "data: [DONE]") done = true; else got++;
        }
      });
      res.on("end", () => { open--; tokens += got; if (done && got === maxTokens) ok++; else dropped++; resolve(); });
      res.on("error", () => { open--; dropped++; resolve(); });
    });
    req.on("error", () => { dropped++; resolve(); });
    req.end(body);
  });
}
await Promise.all(Array.from({ length: n }, one));
console.log(JSON.stringify({ streams: n, ok, http_errors: httpErrors, dropped, max_open: maxOpen, tokens,
  wall_s: (Date.now() - t0) / 1000 }));
