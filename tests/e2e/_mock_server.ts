// What the two mock APIs share (mock_api.ts for Claude Code, mock_responses.ts for Codex): a
// node:http server on 127.0.0.1 that reads each request whole, lets the mock answer it, and
// appends one JSON line per request to the log; and the command line that starts one.
import { appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** One request, read whole. */
export interface MockRequest {
  method: string;
  url: string;
  /** The URL without its query. */
  path: string;
  raw: string;
  /** The body parsed as JSON, or null. */
  body: Record<string, unknown> | null;
}

/** What a mock says it did with a request, for the log. */
export interface MockAnswer {
  kind: string;
  reply: unknown;
}

/**
 * Starts a mock on 127.0.0.1 (`port` 0: any free one): `answer` writes the response and says what
 * it was; every request is appended to `logFile` as `{ n, ts, method, url, kind, body, reply }`.
 */
export function serveMock(
  options: { logFile: string; port?: number },
  answer: (req: MockRequest, res: ServerResponse) => MockAnswer,
): Promise<{ port: number; close(): void }> {
  let n = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: Record<string, unknown> | null = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch { /* logged raw below */ }
      const url = req.url ?? "/";
      const { kind, reply } = answer({ method: req.method ?? "GET", url, path: url.split("?")[0], raw, body }, res);
      const entry = {
        n: ++n,
        ts: new Date().toISOString(),
        method: req.method,
        url: req.url,
        kind,
        body: body ?? (raw || null),
        reply,
      };
      appendFileSync(options.logFile, JSON.stringify(entry) + "\n");
    });
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({ port, close: () => server.close() });
    });
  });
}

/** Writes `value` as a JSON response. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": `req_mock_${Date.now()}` });
  res.end(JSON.stringify(value));
}

/**
 * The command line of a mock script: `--log FILE [--port N]`; prints `{"port":N}` once it listens.
 */
export async function mockMain(
  name: string,
  start: (options: { logFile: string; port: number }) => Promise<{ port: number }>,
): Promise<void> {
  const arg = (flag: string) => {
    const i = process.argv.indexOf(flag);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const logFile = arg("--log");
  if (!logFile) {
    process.stderr.write(`${name}: --log FILE is required\n`);
    process.exitCode = 1;
    return;
  }
  const { port } = await start({ logFile, port: Number(arg("--port") ?? 0) });
  process.stdout.write(JSON.stringify({ port }) + "\n");
}
