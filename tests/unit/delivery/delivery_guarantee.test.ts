import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordDelivery } from "../../../lib/delivery/record.ts";
import { pendingDelivery } from "../../../lib/delivery/pending.ts";
import { rereadPreCompact } from "../../../lib/dispatch/pre_compact.ts";
import { roleRereadItems } from "../../../lib/dispatch/role_items.ts";
import { payload, PROJECT, run, sandbox } from "../_reread_harness.ts";

const SID = "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf";
const FIX_LOGIN = join(PROJECT, "docs", "handler-dispatches", "fix-login.md");
type Env = Record<string, string>;

const compact = async (env: Env, now?: Date) =>
  (await run(
    "PreCompact",
    (ctx) => rereadPreCompact(ctx, undefined, { roleItems: roleRereadItems }),
    payload("PreCompact-auto.json"),
    env,
    { now },
  )).value!
    .compactionId;
const pending = async (event: "SessionStart" | "UserPromptSubmit", env: Env, now?: Date) => {
  const file = event === "SessionStart" ? "SessionStart-compact.json" : "UserPromptSubmit.json";
  return (await run(event, pendingDelivery, payload(file), env, { now })).value;
};
/** What the lead's SessionStart(compact) does: claim the pending compaction (or a fresh one), deliver when the claim is ours. */
const sessionStartCompact = async (env: Env) =>
  (await run(
    "SessionStart",
    (ctx) => recordDelivery(ctx, pendingDelivery(ctx)?.compactionId ?? null, "session-start"),
    payload("SessionStart-compact.json"),
    env,
  )).value;
/** What the lead's UserPromptSubmit does: re-deliver the short form only for a compaction nobody delivered. */
const userPrompt = async (env: Env) =>
  (await run(
    "UserPromptSubmit",
    (ctx) => {
      const p = pendingDelivery(ctx);
      return p ? recordDelivery(ctx, p.compactionId, "user-prompt-submit") : null;
    },
    payload("UserPromptSubmit.json"),
    env,
  )).value;
/** What the lead's SessionStart(resume) does: only what the session never received. */
const resume = async (env: Env) =>
  (await run(
    "SessionStart",
    (ctx) => {
      const p = pendingDelivery(ctx);
      return p ? recordDelivery(ctx, p.compactionId, "session-start") : null;
    },
    payload("SessionStart-resume.json"),
    env,
  )).value;

const worker = () => sandbox({ REHYDRATE_DISPATCH_FILE: FIX_LOGIN });

describe("delivery guarantee", () => {
  test("SessionStart(compact) delivers the compaction PreCompact recorded; the next prompt delivers nothing", async () => {
    const { env } = worker();
    const id = await compact(env);
    assert.equal((await pending("SessionStart", env))?.compactionId, id);
    assert.equal((await pending("SessionStart", env))?.workflow, "worker");
    assert.equal(await sessionStartCompact(env), id);
    assert.equal(await pending("UserPromptSubmit", env), null);
    assert.equal(await userPrompt(env), null);
  });

  test("when SessionStart(compact) output never came, the next prompt re-delivers once, the one after nothing", async () => {
    const { env } = worker();
    const id = await compact(env);
    assert.equal(await userPrompt(env), id);
    assert.equal(await userPrompt(env), null);
    assert.equal(
      await sessionStartCompact(env) === id,
      false,
      "a late SessionStart cannot deliver the same compaction again",
    );
  });

  test("recordDelivery() answers null to every claim after the first for the same compaction", async () => {
    const { env } = worker();
    const id = await compact(env);
    const claim = (channel: "session-start" | "user-prompt-submit") =>
      run("UserPromptSubmit", (ctx) => recordDelivery(ctx, id, channel), payload("UserPromptSubmit.json"), env);
    assert.equal((await claim("session-start")).value, id);
    assert.equal((await claim("session-start")).value, null);
    assert.equal((await claim("user-prompt-submit")).value, null);
  });

  test("resume after a delivered compaction re-injects nothing; resume before delivery gets it once", async () => {
    const a = worker();
    await compact(a.env);
    await sessionStartCompact(a.env);
    assert.equal(await resume(a.env), null);

    const b = worker();
    const id = await compact(b.env);
    assert.equal(await resume(b.env), id);
    assert.equal(await resume(b.env), null);
    assert.equal(await userPrompt(b.env), null);
  });

  test("each compaction is delivered once: a second compaction is pending again with a new id, the old claim is removed", async () => {
    const { env, state } = worker();
    const first = await compact(env);
    await sessionStartCompact(env);
    const second = await compact(env);
    assert.notEqual(first, second);
    assert.equal((await pending("UserPromptSubmit", env))?.compactionId, second);
    assert.ok(!existsSync(join(state, "compactions", `${SID}.${first}.delivered`)));
    assert.equal(await sessionStartCompact(env), second);
    assert.deepEqual(
      readdirSync(join(state, "compactions")).sort(),
      [`${SID}.${second}.delivered`, `${SID}.json`].sort(),
    );
  });

  test("SessionStart(compact) without a PreCompact record still delivers, once", async () => {
    const { env } = sandbox();
    const id = await sessionStartCompact(env);
    assert.match(String(id), /^[a-z0-9]+-[0-9a-f]{12}$/);
    assert.equal(await pending("UserPromptSubmit", env), null);
    assert.equal(await userPrompt(env), null);
  });

  test("a compaction older than markerMaxAgeSeconds is no longer pending", async () => {
    const { env } = worker();
    await compact(env);
    assert.equal(await pending("UserPromptSubmit", env, new Date(Date.now() + 86_401_000)), null);
  });

  test("a regular session records nothing and has nothing pending; a workflow that passes files does", async () => {
    const { env, state } = sandbox();
    assert.equal(
      (await run(
        "PreCompact",
        (ctx) => rereadPreCompact(ctx, undefined, { roleItems: roleRereadItems }),
        payload("PreCompact-auto.json"),
        env,
      )).value,
      null,
    );
    assert.equal(await pending("UserPromptSubmit", env), null);
    assert.ok(!existsSync(join(state, "compactions")));
    const extra = { files: [], reason: "", kind: "orchestration" as const };
    const pc = await run(
      "PreCompact",
      (ctx) => rereadPreCompact(ctx, extra, { roleItems: roleRereadItems }),
      payload("PreCompact-auto.json"),
      env,
    );
    assert.equal((await pending("UserPromptSubmit", env))?.compactionId, pc.value?.compactionId);
    assert.equal((await pending("UserPromptSubmit", env))?.workflow, "orchestration");
  });

  test("a compaction id that cannot be a file name is refused", async () => {
    const { env, state } = worker();
    await compact(env);
    const out = await run(
      "UserPromptSubmit",
      (ctx) => recordDelivery(ctx, "../../x", "user-prompt-submit"),
      payload("UserPromptSubmit.json"),
      env,
    );
    assert.equal(out.value, null);
    assert.ok(!readdirSync(join(state, "compactions")).some((n) => n.endsWith(".delivered")));
  });

  test("of eight processes claiming one compaction, exactly one delivers", async () => {
    const { env } = worker();
    const id = await compact(env);
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-deliver-"));
    const stdin = join(dir, "ups.json");
    writeFileSync(stdin, payload("UserPromptSubmit.json"));
    const script = join(import.meta.dirname!, "..", "_reread_child.ts");
    const isBun = typeof (globalThis as Record<string, unknown>).Bun !== "undefined";
    const startAt = String(Date.now() + 1500);
    const outs = await Promise.all(Array.from({ length: 8 }, () =>
      new Promise<string>((resolve, reject) => {
        const args = [...(isBun ? [] : ["run", "-A"]), script, "deliver", stdin, startAt];
        const child = spawn(process.execPath, args, {
          env: { ...process.env, ...env, TEST_COMPACTION_ID: id },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => out += d);
        child.stderr.on("data", (d) => err += d);
        child.on("error", reject);
        child.on("close", (code) => code === 0 ? resolve(out) : reject(new Error(`child exit ${code}: ${err}`)));
      })));
    const got = outs.map((o) => JSON.parse(o.trim()).got);
    assert.deepEqual(got.filter((g) => g !== null), [id], JSON.stringify(got));
  });
});

describe("delivery guarantee under a racing PreCompact", () => {
  test("a claim for a compaction that PreCompact has just replaced delivers nothing; the new one stays pending", async () => {
    const { env } = worker();
    const first = await compact(env);
    assert.equal((await pending("UserPromptSubmit", env))?.compactionId, first);
    // PreCompact of the next compaction lands between the prompt's check and its claim.
    const second = await compact(env);
    assert.notEqual(second, first);
    const claimed = (await run(
      "UserPromptSubmit",
      (ctx) => recordDelivery(ctx, first, "user-prompt-submit"),
      payload("UserPromptSubmit.json"),
      env,
    )).value;
    assert.equal(claimed, null, "the superseded compaction is not delivered");
    assert.equal((await pending("UserPromptSubmit", env))?.compactionId, second);
    assert.equal(await sessionStartCompact(env), second);
  });
});
