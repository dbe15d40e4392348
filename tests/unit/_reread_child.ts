// Child process of the concurrency tests (not a test file): waits until the
// given wall-clock moment so that all children start together, runs one hook
// handler through handleHook, and prints its stdout (or the recordDelivery
// result) as one JSON line.
import { handleHook } from "../../lib/hook/handle_hook.ts";
import { rereadPreToolUse } from "../../lib/reread/pre_tool_use.ts";
import { rereadStop } from "../../lib/reread/stop.ts";
import { recordDelivery } from "../../lib/delivery/record.ts";

const [mode, stdinFile, startAt] = process.argv.slice(-3);
const { readFileSync } = await import("node:fs");
const stdin = readFileSync(stdinFile, "utf8");
while (Date.now() < Number(startAt)) { /* spin until the common start */ }
const env = process.env as Record<string, string>;
if (mode === "deliver") {
  let got: string | null = null;
  await handleHook(
    "UserPromptSubmit",
    (ctx) => {
      got = recordDelivery(ctx, env.TEST_COMPACTION_ID, "user-prompt-submit");
      return null;
    },
    stdin,
    { env },
  );
  process.stdout.write(JSON.stringify({ got }) + "\n");
} else {
  const reply = (json: Record<string, unknown> | null) => json ? { json } : null;
  const out = mode === "stop"
    ? handleHook("Stop", (ctx) => reply(rereadStop(ctx)), stdin, { env })
    : handleHook("PreToolUse", (ctx) => reply(rereadPreToolUse(ctx)), stdin, { env });
  process.stdout.write(JSON.stringify({ stdout: out.stdout }) + "\n");
}
