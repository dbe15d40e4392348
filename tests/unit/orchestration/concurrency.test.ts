import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { workspace } from "../_orchestration_env.ts";

const LIB = join(import.meta.dirname!, "..", "..", "..", "lib");
const WRITERS = 8;
const EACH = 3;

function runChild(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
  const args = isBun ? [script] : ["run", "-A", script];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

test("checkpoints written by several processes at once get distinct, gap-free numbers and valid content", async () => {
  const ws = workspace();
  const script = join(ws, ".home", "writer.ts");
  writeFileSync(
    script,
    `
import { handleHook } from ${JSON.stringify(pathToFileURL(join(LIB, "hook", "handle_hook.ts")).href)};
import { orchestrationPreCompact } from ${
      JSON.stringify(pathToFileURL(join(LIB, "orchestration", "checkpoint.ts")).href)
    };
const ws = process.env.ORCH_WS;
const env = { CLAUDE_PROJECT_DIR: ws, REHYDRATE_STATE_DIR: ws + "/.home/state", HOME: ws + "/.home" };
const input = JSON.stringify({ session_id: "sess-" + process.env.ORCH_ID, transcript_path: "", cwd: ws, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null });
for (let i = 0; i < ${EACH}; i++) {
  const out = await handleHook("PreCompact", (ctx) => {
    const r = orchestrationPreCompact(ctx);
    return r ? { stdout: r.checkpointPath + "\\n" } : null;
  }, input, { env, homeDir: ws + "/.home" });
  process.stdout.write(out.stdout);
}
`,
  );
  const results = await Promise.all(
    Array.from({ length: WRITERS }, (_, i) => runChild(script, { ORCH_WS: ws, ORCH_ID: String(i) })),
  );
  for (const r of results) assert.equal(r.code, 0, r.err);
  const reported = results.flatMap((r) => r.out.trim().split("\n")).map((p) => p.slice(p.lastIndexOf("/") + 1));
  assert.equal(reported.length, WRITERS * EACH, "every hook call wrote a checkpoint");
  assert.equal(new Set(reported).size, WRITERS * EACH, "no number was handed out twice");
  const dir = join(ws, ".jerry", "checkpoints");
  const names = readdirSync(dir).sort();
  const expected = Array.from(
    { length: WRITERS * EACH },
    (_, i) => `cx-${String(i + 1).padStart(3, "0")}-checkpoint.json`,
  );
  assert.deepEqual(names, expected, "no number lost, no temporary file left");
  for (const name of names) {
    const cp = JSON.parse(readFileSync(join(dir, name), "utf8"));
    assert.equal(`${cp.checkpoint_id}-checkpoint.json`, name, "the content names its own file");
  }
});
