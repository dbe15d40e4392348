// Faults on the compiled binaries: SIGKILL at random points while a hook writes state or a
// checkpoint, a full disk and read-only directories (a real tmpfs and read-only bind mounts when
// this runs as root, skipped otherwise), and hooks of two sessions and of one session racing.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { bin } from "./_bin.ts";
import { createWorld, destroyWorld, listFiles, SESSION, type World } from "../fuzz/_world.ts";
import { Rng } from "../fuzz/_rng.ts";
import { checkOutput } from "../fuzz/_check.ts";
import { writeTranscript } from "../unit/_transcript_gen.ts";
import type { HookEventName } from "../../lib/hook/hook_types.ts";

const OTHER = "9f8e7d6c-5b4a-4321-8fed-cba987654321";
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const canMount = isRoot && process.platform === "linux" && (() => {
  const dir = `/tmp/rehydrate-mount-probe-${process.pid}`;
  mkdirSync(dir, { recursive: true });
  const ok = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]).status === 0;
  if (ok) spawnSync("umount", [dir]);
  rmSync(dir, { recursive: true, force: true });
  return ok;
})();

const worlds: World[] = [];
after(() => {
  for (const w of worlds) destroyWorld(w);
});
function world(seed = 11): World {
  const w = createWorld(new Rng(seed), { kind: "workspace" });
  worlds.push(w);
  return w;
}

function input(w: World, event: HookEventName, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: w.transcripts.demo,
    cwd: w.project,
    hook_event_name: event,
    ...extra,
  });
}

interface Done {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a hook; with `killAfterMs` sends SIGKILL after that delay. */
function start(
  name: string,
  stdin: string,
  env: Record<string, string | undefined>,
  cwd: string,
  killAfterMs?: number,
): Promise<Done> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(bin(name), [], { env: env as NodeJS.ProcessEnv, cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.stdin.on("error", () => {});
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.on("close", (status, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, ms: performance.now() - t0 });
    });
    child.stdin.end(stdin);
  });
}

/** Every state file we wrote is complete JSON; returns how many were checked. */
function assertNoTornFile(w: World): number {
  let n = 0;
  for (const dir of [w.state, join(w.project, ".jerry"), join(w.project, "00-system", ".cache")]) {
    for (const p of listFiles(dir)) {
      const name = basename(p);
      if (name.startsWith(".") && name.endsWith(".tmp")) continue; // a temporary file never renamed into place
      if (!name.endsWith(".json")) continue;
      assert.doesNotThrow(
        () => JSON.parse(readFileSync(p, "utf8")),
        `torn file ${p}: ${readFileSync(p, "utf8").slice(0, 80)}`,
      );
      n++;
    }
  }
  return n;
}

function checkpointNumbers(w: World): number[] {
  const dir = join(w.project, ".jerry", "checkpoints");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((n) => /^cx-(\d+)-checkpoint\.json$/.exec(n)).filter((m) => m !== null).map((m) =>
    Number(m![1])
  ).sort((a, b) => a - b);
}

describe("crash safety", () => {
  test("SIGKILL at a random point of PreCompact, PostCompact or SessionStart never leaves a torn file, and the next run works", async () => {
    const w = world();
    // A large transcript makes PreCompact run long enough to be killed in the middle of its work.
    writeTranscript(w.transcripts.messy, { seed: 5, targetBytes: 12 * 1024 * 1024 });
    const env = { ...w.env, REHYDRATE_DEBUG: "1" };
    const pre = input(w, "PreCompact", { trigger: "auto", transcript_path: w.transcripts.messy });
    const full = await start("pre-compact", pre, env, w.project);
    assert.equal(full.status, 0);
    const rng = new Rng(20261121);
    const kinds: [string, string][] = [
      ["pre-compact", pre],
      ["post-compact", input(w, "PostCompact", { trigger: "auto", compact_summary: "Summary of the work so far." })],
      ["session-start", input(w, "SessionStart", { source: "compact" })],
    ];
    // Each kind is killed within its own run time (PostCompact and SessionStart are much shorter
    // than PreCompact), so most trials really stop a hook in the middle of its work.
    const runMs: number[] = [full.ms];
    for (const [name, stdin] of kinds.slice(1)) runMs.push((await start(name, stdin, env, w.project)).ms);
    let killed = 0;
    for (let trial = 0; trial < 36; trial++) {
      const [name, stdin] = kinds[trial % kinds.length];
      const r = await start(name, stdin, env, w.project, rng.next() * 0.9 * Math.max(runMs[trial % kinds.length], 5));
      if (r.signal === "SIGKILL") killed++;
      assertNoTornFile(w);
    }
    assert.ok(killed >= 10, `only ${killed} runs were killed before they ended`);
    const numbers = checkpointNumbers(w);
    assert.deepEqual(numbers, numbers.map((_, i) => i + 1), "checkpoint numbers stay gap-free");
    const after = await start("pre-compact", pre, env, w.project);
    assert.deepEqual(checkOutput("PreCompact", after.status, after.stdout, after.stderr), []);
    assert.match(after.stdout, /01-website-redesign|orchestration/);
    const resumed = await start("session-start", input(w, "SessionStart", { source: "compact" }), env, w.project);
    assert.deepEqual(checkOutput("SessionStart", resumed.status, resumed.stdout, resumed.stderr), []);
    assert.match(resumed.stdout, /nexus-context/);
    assert.ok(assertNoTornFile(w) >= 4);
  });
});

describe("full disk and read-only directories", { skip: !canMount && "needs root and mount (tmpfs, bind)" }, () => {
  function mount(args: string[]): void {
    const r = spawnSync("mount", args, { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
  }
  const mounted: string[] = [];
  after(() => {
    for (const m of mounted.reverse()) spawnSync("umount", ["-l", m]);
  });

  function hooks(w: World, env: Record<string, string | undefined>): void {
    for (
      const [name, event, extra] of [
        ["pre-compact", "PreCompact", { trigger: "auto" }],
        ["post-compact", "PostCompact", { compact_summary: "S." }],
        ["session-start", "SessionStart", { source: "compact" }],
        ["user-prompt-submit", "UserPromptSubmit", {}],
        ["pre-tool-use", "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }],
        ["post-tool-use", "PostToolUse", {
          tool_name: "Read",
          tool_input: { file_path: join(w.project, "README.md") },
        }],
        ["stop", "Stop", { stop_hook_active: false }],
      ] as const
    ) {
      const r = spawnSync(bin(name), [], {
        input: input(w, event, extra),
        env: env as NodeJS.ProcessEnv,
        cwd: w.project,
        encoding: "utf8",
        timeout: 10_000,
      });
      assert.deepEqual(checkOutput(event, r.status, r.stdout ?? "", r.stderr ?? ""), [], name);
    }
  }

  function snapshotFiles(dirs: string[]): [string, string][] {
    return dirs.flatMap((d) => listFiles(d)).map((p) => [p, readFileSync(p, "utf8")]);
  }

  test("a full state directory and a full .jerry: every hook exits 0, existing state is intact, and the log says why", async () => {
    const w = world(12);
    const env = { ...w.env, REHYDRATE_DEBUG: "1" };
    await start("pre-compact", input(w, "PreCompact", { trigger: "auto" }), env, w.project);
    const jerry = join(w.project, ".jerry");
    const saved = snapshotFiles([jerry]);
    // .jerry on a 64 KiB tmpfs holding its old checkpoints and a filler that uses the rest.
    rmSync(jerry, { recursive: true });
    mkdirSync(jerry, { mode: 0o700 });
    mount(["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", jerry]);
    mounted.push(jerry);
    mkdirSync(join(jerry, "checkpoints"), { mode: 0o700 });
    for (const [p, text] of saved) writeFileSync(p, text, { mode: 0o600 });
    spawnSync("dd", ["if=/dev/zero", `of=${join(jerry, "filler")}`, "bs=4k", "count=64"]);
    const before = snapshotFiles([jerry]);
    hooks(w, env);
    assert.deepEqual(snapshotFiles([jerry]), before, "old checkpoints intact");
    const log = readFileSync(join(w.state, "debug.log"), "utf8");
    assert.match(log, /ENOSPC/, "the debug log names the full disk");

    // The state directory itself full: nothing can be logged there, but nothing breaks either.
    const v = world(13);
    await start("pre-compact", input(v, "PreCompact", { trigger: "auto" }), v.env, v.project);
    const old = snapshotFiles([v.state]);
    rmSync(v.state, { recursive: true });
    mkdirSync(v.state, { mode: 0o700 });
    mount(["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", v.state]);
    mounted.push(v.state);
    for (const [p, text] of old) {
      mkdirSync(join(p, ".."), { recursive: true, mode: 0o700 });
      writeFileSync(p, text, { mode: 0o600 });
    }
    spawnSync("dd", ["if=/dev/zero", `of=${join(v.state, "filler")}`, "bs=4k", "count=64"]);
    const full = snapshotFiles([v.state]);
    hooks(v, { ...v.env, REHYDRATE_DEBUG: "1" });
    for (const [p, text] of full) {
      if (!p.includes("compactions") && !p.includes("markers")) assert.equal(readFileSync(p, "utf8"), text, p);
    }
    assertNoTornFile(v);
  });

  test("read-only .jerry and 00-system/.cache: every hook exits 0, nothing changes there, and the log says why", async () => {
    const w = world(14);
    const env = { ...w.env, REHYDRATE_DEBUG: "1" };
    await start("pre-compact", input(w, "PreCompact", { trigger: "auto" }), env, w.project);
    const dirs = [join(w.project, ".jerry"), join(w.project, "00-system", ".cache")];
    for (const d of dirs) {
      mount(["--bind", d, d]);
      mounted.push(d);
      mount(["-o", "remount,bind,ro", d]);
    }
    const before = snapshotFiles(dirs);
    hooks(w, env);
    assert.deepEqual(snapshotFiles(dirs), before);
    assert.match(readFileSync(join(w.state, "debug.log"), "utf8"), /EROFS/);
  });
});

describe("concurrency", () => {
  test("two sessions of one project and two hooks of one session at once, 12 rounds: no lost checkpoint number, no state of the wrong session, no corrupt file", async () => {
    const w = world(15);
    const env = { ...w.env, REHYDRATE_DEBUG: "1" };
    const as = (sid: string, event: HookEventName, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ ...JSON.parse(input(w, event, extra)), session_id: sid });
    let preCompacts = 0;
    for (let round = 0; round < 12; round++) {
      const runs = await Promise.all([
        start("pre-compact", as(SESSION, "PreCompact", { trigger: "auto" }), env, w.project),
        start("pre-compact", as(OTHER, "PreCompact", { trigger: "auto" }), env, w.project),
        start("user-prompt-submit", as(SESSION, "UserPromptSubmit", { prompt: "go on" }), env, w.project),
        start(
          "post-tool-use",
          as(OTHER, "PostToolUse", { tool_name: "Read", tool_input: { file_path: join(w.project, "README.md") } }),
          env,
          w.project,
        ),
      ]);
      preCompacts += 2;
      for (const r of runs) assert.equal(r.status, 0);
      assertNoTornFile(w);
      const numbers = checkpointNumbers(w);
      assert.deepEqual(numbers, numbers.map((_, i) => i + 1), `round ${round}: gap-free checkpoint numbers`);
      assert.ok(
        numbers.length >= preCompacts,
        `round ${round}: ${numbers.length} checkpoints for ${preCompacts} PreCompact runs`,
      );
      for (const sid of [SESSION, OTHER]) {
        const marker = JSON.parse(readFileSync(join(w.state, "markers", `${sid}.json`), "utf8"));
        assert.equal(marker.session_id, sid);
        const record = JSON.parse(readFileSync(join(w.state, "compactions", `${sid}.json`), "utf8"));
        assert.equal(record.session_id, sid);
      }
      // Both sessions resume at once, each with a second parallel SessionStart of its own.
      const starts = await Promise.all(
        [SESSION, SESSION, OTHER, OTHER].map((sid) =>
          start("session-start", as(sid, "SessionStart", { source: "compact" }), env, w.project)
        ),
      );
      for (const sid of [SESSION, OTHER]) {
        // UserPromptSubmit of the first batch may have run after PreCompact and re-delivered it.
        const prompt = sid === SESSION ? [runs[2]] : [];
        const mine = [...prompt, ...starts.filter((_, i) => (i < 2 ? SESSION : OTHER) === sid)].filter((r) =>
          r.stdout.includes("nexus-context")
        );
        assert.equal(mine.length, 1, `round ${round}: session ${sid.slice(0, 8)} got its context exactly once`);
        assert.match(mine[0].stdout, new RegExp(`session id=\\\\"${sid}\\\\"`), "and it is its own");
      }
      // Each session's first tool call is denied once, whichever of them runs first.
      const tools = await Promise.all(
        [OTHER, SESSION].map((sid) =>
          start(
            "pre-tool-use",
            as(sid, "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }),
            env,
            w.project,
          )
        ),
      );
      for (const r of tools) assert.match(r.stdout, /"permissionDecision":"deny"/);
    }
    for (const cp of listFiles(join(w.project, ".jerry", "checkpoints"))) {
      const data = JSON.parse(readFileSync(cp, "utf8"));
      assert.ok([SESSION, OTHER].includes(data.session_id), `${cp}: ${data.session_id}`);
    }
    assert.ok(statSync(join(w.state, "debug.log")).size > 0);
  });
});
