import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readResumptionCached } from "../../../lib/orchestration/_resumption_cache.ts";
import { readOrchestrationResumption } from "../../../lib/orchestration/resumption.ts";
import { inHook, workspace } from "../_orchestration_env.ts";

function setup() {
  const ws = workspace();
  const run = readdirSync(join(ws, "projects"))[0];
  const yaml = join(ws, "projects", run, "ORCHESTRATION.yaml");
  // The fixture was just copied: "now" well after it, so the file is not too recent to cache.
  const later = new Date(Date.now() + 60_000);
  const read = (now = later) =>
    inHook(ws, "UserPromptSubmit", { prompt: "x" }, (ctx) => readResumptionCached(ctx, yaml), { now });
  const cacheFile = () => {
    const dir = join(ws, ".home", "state", "cache");
    try {
      const f = readdirSync(dir).filter((n) => n.startsWith("orchestration-"));
      return f.length === 1 ? join(dir, f[0]) : null;
    } catch {
      return null;
    }
  };
  return { ws, yaml, read, cacheFile };
}

test("readResumptionCached() gives what a direct parse gives, then serves it from the cache", async () => {
  const { yaml, read, cacheFile } = setup();
  const direct = { ...readOrchestrationResumption(yaml), document: undefined };
  assert.deepEqual(await read(), direct);
  const file = cacheFile();
  assert.ok(file, "a cache file was written");
  // Plant a value only the cache can give: a second read must return it without parsing.
  const entry = JSON.parse(readFileSync(file, "utf8"));
  entry.state.nextStep = "planted-by-test";
  writeFileSync(file, JSON.stringify(entry));
  assert.equal((await read()).nextStep, "planted-by-test");
  assert.equal((await read()).document, undefined);
});

test("readResumptionCached() parses again after an edit, a corrupt or foreign cache file", async () => {
  const { yaml, read, cacheFile } = setup();
  await read();
  const file = cacheFile()!;
  const plant = (change: (e: Record<string, unknown>) => void) => {
    const e = JSON.parse(readFileSync(file, "utf8"));
    e.state.nextStep = "planted-by-test";
    change(e);
    writeFileSync(file, JSON.stringify(e));
  };
  plant(() => {});
  appendFileSync(yaml, "\n# edited\n");
  assert.notEqual((await read()).nextStep, "planted-by-test", "an edit changes the signature");
  plant((e) => (e.file = "/elsewhere/ORCHESTRATION.yaml"));
  assert.notEqual((await read()).nextStep, "planted-by-test", "a cache file for another path is not used");
  plant((e) => (e.v = 99));
  assert.notEqual((await read()).nextStep, "planted-by-test", "another format version is not used");
  writeFileSync(file, "{ not json");
  assert.equal((await read()).status, "ok");
});

test("readResumptionCached() does not cache a file modified in the last seconds", async () => {
  const { read, cacheFile } = setup();
  const state = await read(new Date());
  assert.equal(state.status, "ok");
  assert.equal(cacheFile(), null);
});

test("readResumptionCached() reads a missing file as missing, without a cache entry", async () => {
  const ws = workspace();
  const state = await inHook(
    ws,
    "UserPromptSubmit",
    { prompt: "x" },
    (ctx) => readResumptionCached(ctx, join(ws, "nope", "ORCHESTRATION.yaml")),
  );
  assert.equal(state.status, "missing");
});
