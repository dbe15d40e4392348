import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rereadPostToolUse } from "../../../lib/dispatch/post_tool_use.ts";
import { rereadPreCompact } from "../../../lib/dispatch/pre_compact.ts";
import { roleRereadItems } from "../../../lib/dispatch/role_items.ts";
import { rereadPreToolUse } from "../../../lib/reread/pre_tool_use.ts";
import { rereadStop } from "../../../lib/reread/stop.ts";
import { consumeRereadMarker } from "../../../lib/reread/marker_consume.ts";
import { writeRereadMarker } from "../../../lib/reread/marker_write.ts";
import { expireRereadState } from "../../../lib/reread/marker_expire.ts";
import { asJson, payload, PROJECT, run, sandbox } from "../_reread_harness.ts";

const SID = "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf";
const FIX_LOGIN = join(PROJECT, "docs", "handler-dispatches", "fix-login.md");
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const posix = process.platform !== "win32";

type Env = Record<string, string>;
const compact = (sid: string, env: Env) =>
  run(
    "PreCompact",
    (ctx) => rereadPreCompact(ctx, undefined, { roleItems: roleRereadItems }),
    payload("PreCompact-auto.json", { session_id: sid }),
    env,
  );
const toolUse = (sid: string, env: Env) =>
  run(
    "PreToolUse",
    rereadPreToolUse,
    payload("PreToolUse-Read.json", { session_id: sid, tool_name: "Bash", tool_input: { command: "ls" } }),
    env,
    { reply: asJson },
  );
const stopping = (sid: string, env: Env) =>
  run("Stop", rereadStop, payload("Stop.json", { session_id: sid }), env, { reply: asJson });

/** A worker sandbox whose marker for SID is already written. */
async function marked(): Promise<{ env: Env; state: string; marker: string }> {
  const box = sandbox({ REHYDRATE_DISPATCH_FILE: FIX_LOGIN });
  await compact(SID, box.env);
  const marker = join(box.state, "markers", `${SID}.json`);
  assert.ok(existsSync(marker));
  return { ...box, marker };
}

describe("refused markers", () => {
  test("a marker that is a symbolic link is refused and left alone, and so is its target", async () => {
    const { env, marker } = await marked();
    const elsewhere = join(mkdtempSync(join(tmpdir(), "rehydrate-link-")), "planted.json");
    renameSync(marker, elsewhere);
    symlinkSync(elsewhere, marker);
    assert.equal((await toolUse(SID, env)).outcome.stdout, "");
    assert.equal((await stopping(SID, env)).outcome.stdout, "");
    assert.ok(lstatSync(marker).isSymbolicLink(), "the link is not consumed");
    assert.ok(existsSync(elsewhere), "its target is untouched");
  });

  test("a marker owned by another user is refused", { skip: !isRoot && "needs root to chown" }, async () => {
    const { env, marker } = await marked();
    chownSync(marker, 4242, 4242);
    assert.equal((await toolUse(SID, env)).outcome.stdout, "");
    assert.equal((await stopping(SID, env)).outcome.stdout, "");
    assert.ok(existsSync(marker));
    chownSync(marker, 0, 0);
    assert.match((await toolUse(SID, env)).outcome.stdout, /"deny"/, "the same marker owned by us is used");
  });

  for (const mode of [0o770, 0o777, 0o720, 0o702]) {
    test(`a marker in a directory with mode ${mode.toString(8)} is refused until the directory is private again`, {
      skip: !posix,
    }, async () => {
      const { env, state, marker } = await marked();
      chmodSync(join(state, "markers"), mode);
      assert.equal((await toolUse(SID, env)).outcome.stdout, "");
      assert.equal((await stopping(SID, env)).outcome.stdout, "");
      assert.ok(existsSync(marker));
      chmodSync(join(state, "markers"), 0o700);
      assert.match((await toolUse(SID, env)).outcome.stdout, /"deny"/);
    });
  }

  test("a markers directory that is a symbolic link is refused", { skip: !posix }, async () => {
    const { env, state } = await marked();
    const moved = join(mkdtempSync(join(tmpdir(), "rehydrate-dirlink-")), "markers");
    renameSync(join(state, "markers"), moved);
    symlinkSync(moved, join(state, "markers"));
    assert.equal((await toolUse(SID, env)).outcome.stdout, "");
    assert.ok(existsSync(join(moved, `${SID}.json`)));
  });

  test("a FIFO in place of the marker is refused without blocking", { skip: !posix }, async () => {
    const { env, marker } = await marked();
    renameSync(marker, marker + ".bak");
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [marker]);
    assert.equal((await toolUse(SID, env)).outcome.stdout, "");
  });

  test("markers, role files and compaction records are 0600 in 0700 directories", { skip: !posix }, async () => {
    const box = sandbox();
    await run(
      "PostToolUse",
      rereadPostToolUse,
      payload("PostToolUse-Read.json", { tool_name: "Skill", tool_input: { skill: "handler" } }),
      box.env,
    );
    await compact(SID, box.env);
    for (const dir of ["markers", "sessions", "compactions"]) {
      assert.equal(lstatSync(join(box.state, dir)).mode & 0o777, 0o700, dir);
      for (const name of readdirSync(join(box.state, dir))) {
        assert.equal(lstatSync(join(box.state, dir, name)).mode & 0o777, 0o600, `${dir}/${name}`);
      }
    }
  });

  test("a malformed marker is dropped, and one for another session id is not used", async () => {
    const { env, marker } = await marked();
    writeFileSync(marker, "{not json", { mode: 0o600 });
    assert.equal((await toolUse(SID, env)).outcome.stdout, "");
    assert.ok(!existsSync(marker));
    const { env: env2, marker: marker2 } = await marked();
    const m = JSON.parse(readFileSync(marker2, "utf8"));
    writeFileSync(marker2, JSON.stringify({ ...m, session_id: "someone-else" }), { mode: 0o600 });
    assert.equal((await toolUse(SID, env2)).outcome.stdout, "");
  });

  test("a stale marker is deleted and ignored", async () => {
    const { env, marker } = await marked();
    const later = new Date(Date.now() + 86_401_000);
    const out = await run(
      "PreToolUse",
      rereadPreToolUse,
      payload("PreToolUse-Read.json", { tool_name: "Bash", tool_input: {} }),
      env,
      { now: later, reply: asJson },
    );
    assert.equal(out.outcome.stdout, "");
    assert.ok(!existsSync(marker));
  });

  test("expireRereadState() deletes old markers and leftovers but keeps fresh ones", async () => {
    const { state, marker } = await marked();
    writeFileSync(marker + ".consumed.1.abcd", "{}", { mode: 0o600 });
    assert.equal(expireRereadState(state, { now: new Date() }), 0);
    const removed = expireRereadState(state, { now: new Date(Date.now() + 2 * 86_400_000) });
    assert.ok(removed >= 3, `removed ${removed}`); // marker, leftover, compaction record
    assert.ok(!existsSync(marker));
  });
});

describe("session ids", () => {
  for (const bad of ["../evil", "a/b", "..", "x/../../y", "", "a b"]) {
    test(`the session id ${JSON.stringify(bad)} is rejected: nothing is written or read`, async () => {
      const { env, state } = sandbox({ REHYDRATE_DISPATCH_FILE: FIX_LOGIN });
      await run(
        "PostToolUse",
        rereadPostToolUse,
        payload("PostToolUse-Read.json", { session_id: bad, tool_name: "Skill", tool_input: { skill: "handler" } }),
        env,
      );
      const pc = await compact(bad, env);
      assert.equal(pc.value ?? null, null);
      assert.equal((await toolUse(bad, env)).outcome.stdout, "");
      const files = existsSync(state)
        ? readdirSync(state, { recursive: true }).map(String).filter((n) => n !== "debug.log")
        : [];
      assert.deepEqual(files.filter((f) => !["markers", "sessions", "compactions"].includes(f)), []);
      assert.equal(
        writeRereadMarker(state, {
          schema_version: 1,
          session_id: bad,
          session_type: "worker",
          compaction_id: "x",
          files: [],
          reason: "r",
          created_at: new Date().toISOString(),
        }),
        null,
      );
      assert.equal(consumeRereadMarker(state, bad), null);
    });
  }
});

describe("sessions and processes", () => {
  test("two sessions of the same project compacting at once keep separate markers and state", async () => {
    const a = "11111111-1111-4111-8111-111111111111";
    const b = "22222222-2222-4222-8222-222222222222";
    const box = sandbox();
    await run(
      "PostToolUse",
      rereadPostToolUse,
      payload("PostToolUse-Read.json", { session_id: a, tool_name: "Skill", tool_input: { skill: "handler" } }),
      box.env,
    );
    const envB = { ...box.env, REHYDRATE_DISPATCH_FILE: FIX_LOGIN };
    const [ra, rb] = await Promise.all([compact(a, box.env), compact(b, envB)]);
    const ida = (ra.value as { compactionId: string }).compactionId;
    const idb = (rb.value as { compactionId: string }).compactionId;
    assert.notEqual(ida, idb);
    const ma = JSON.parse(readFileSync(join(box.state, "markers", `${a}.json`), "utf8"));
    const mb = JSON.parse(readFileSync(join(box.state, "markers", `${b}.json`), "utf8"));
    assert.deepEqual([ma.session_type, ma.compaction_id], ["handler", ida]);
    assert.deepEqual([mb.session_type, mb.compaction_id, mb.files], ["worker", idb, [FIX_LOGIN]]);
    assert.match((await toolUse(a, box.env)).outcome.stdout, /handler session/);
    assert.ok(existsSync(join(box.state, "markers", `${b}.json`)), "consuming A's marker leaves B's");
    const blockB = JSON.parse((await stopping(b, envB)).outcome.stdout);
    assert.ok(blockB.reason.includes(FIX_LOGIN));
    assert.equal((await toolUse(a, box.env)).outcome.stdout, "");
    assert.equal((await toolUse(b, envB)).outcome.stdout, "");
  });

  test("of eight processes racing for one marker (PreToolUse and Stop), exactly one blocks", async () => {
    const { env } = await marked();
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-race-"));
    const pre = join(dir, "pre.json");
    const stp = join(dir, "stop.json");
    writeFileSync(pre, payload("PreToolUse-Read.json", { tool_name: "Bash", tool_input: {} }));
    writeFileSync(stp, payload("Stop.json"));
    const script = join(import.meta.dirname!, "..", "_reread_child.ts");
    const isBun = typeof (globalThis as Record<string, unknown>).Bun !== "undefined";
    const startAt = String(Date.now() + 1500);
    const runs = Array.from({ length: 8 }, (_, i) => {
      const args = [...(isBun ? [] : ["run", "-A"]), script, i % 2 ? "stop" : "pre", i % 2 ? stp : pre, startAt];
      return new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, args, {
          env: { ...process.env, ...env },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => out += d);
        child.stderr.on("data", (d) => err += d);
        child.on("error", reject);
        child.on("close", (code) => code === 0 ? resolve(out) : reject(new Error(`child exit ${code}: ${err}`)));
      });
    });
    const outs = (await Promise.all(runs)).map((o) => JSON.parse(o.trim()).stdout as string);
    const blocks = outs.filter((s) => s !== "");
    assert.equal(blocks.length, 1, JSON.stringify(outs));
    assert.match(blocks[0], /"deny"|"block"/);
  });
});
