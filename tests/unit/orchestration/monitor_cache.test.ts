import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { orchestrationPromptContext } from "../../../lib/orchestration/monitor.ts";
import { inHook, transcript, workspace } from "../_orchestration_env.ts";

test("orchestrationPromptContext() reuses the resumption status while ORCHESTRATION.yaml is unchanged, and re-reads it after an edit", async () => {
  const ws = workspace();
  const t = transcript(ws, 150_000); // 75 %: WARNING, so the monitor explains the status
  const prompt = () =>
    inHook(ws, "UserPromptSubmit", { transcript_path: t, prompt: "go" }, (ctx) => orchestrationPromptContext(ctx));
  await prompt();
  const statePath = join(ws, ".jerry", "context-monitor-state.json");
  const state = JSON.parse(readFileSync(statePath, "utf8"));
  assert.match(String(state.resumption_key), /^\d+(\.\d+)?:\d+:/);

  // Plant a status only the cache can have produced: if the file were parsed again it would vanish.
  writeFileSync(
    statePath,
    JSON.stringify({ ...state, resumption_status: "STALE", resumption_reasons: ["planted-by-test"] }),
  );
  assert.match(String(await prompt()), /planted-by-test/);

  const run = readdirSync(join(ws, "projects"))[0];
  appendFileSync(join(ws, "projects", run, "ORCHESTRATION.yaml"), "\n# edited\n");
  assert.doesNotMatch(String(await prompt()), /planted-by-test/);
});
