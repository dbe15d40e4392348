// The usual prompt's fast path (lib/events/quiet_prompt.ts) against its oracle, the full UserPromptSubmit
// hook: from the same files, the hook binary's entry (fast path, else the full hook) and the full
// hook alone must print the same and leave the same files, prompt after prompt, whatever changed
// in between. The fast path must also really be taken when only the fill changed.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import { userPromptSubmitHook } from "../../../lib/events/user_prompt_submit.ts";
import { preCompactHook } from "../../../lib/events/pre_compact_hook.ts";
import { sessionStartHook } from "../../../lib/events/session_start.ts";
import { quietPrompt } from "../../../lib/events/quiet_prompt.ts";
import { writeQuietMemo } from "../../../lib/events/quiet_prompt_memo.ts";
import { orchestrationPromptContext, type QuietFacts } from "../../../lib/orchestration/monitor.ts";
import { recordCheckpointWritten } from "../../../lib/orchestration/provenance.ts";
import { ajvFor, inHook, workspace } from "../_orchestration_env.ts";
import { mulberry32 } from "../_rng.ts";

const RUN = "PROJ-001-oss-release";

interface World {
  ws: string;
  home: string;
  env: Record<string, string>;
  transcript: string;
  memo: string;
}

function world(): World {
  const ws = workspace();
  rmSync(join(ws, "projects", "PROJ-002-docs-site"), { recursive: true });
  const home = join(ws, ".home");
  const transcript = join(home, "t.jsonl");
  writeFileSync(
    transcript,
    JSON.stringify({
      type: "user",
      uuid: "u0",
      parentUuid: null,
      isSidechain: false,
      message: { role: "user", content: "go" },
    }) + "\n",
  );
  const env = { CLAUDE_PROJECT_DIR: ws, REHYDRATE_STATE_DIR: join(home, "state"), HOME: home };
  return { ws, home, env, transcript, memo: join(home, "state", "quiet", "sess-1.json") };
}

let rowNo = 0;
/** Appends a main-chain assistant row whose usage totals `tokens`. */
function grow(w: World, tokens: number, model = "claude-opus-4-6"): void {
  const id = `a${++rowNo}`;
  appendFileSync(
    w.transcript,
    JSON.stringify({
      type: "assistant",
      uuid: id,
      parentUuid: "u0",
      isSidechain: false,
      message: {
        id: `msg_${id}`,
        model,
        role: "assistant",
        content: [{ type: "text", text: "ok" }],
        usage: {
          input_tokens: 3,
          cache_read_input_tokens: tokens - 3,
          cache_creation_input_tokens: 0,
          output_tokens: 5,
        },
      },
    }) + "\n",
  );
}

function input(w: World, event = "UserPromptSubmit"): string {
  return JSON.stringify({
    session_id: "sess-1",
    transcript_path: w.transcript,
    cwd: w.ws,
    hook_event_name: event,
    prompt: "go on",
    permission_mode: "default",
  });
}

/** The full hook alone: the oracle. */
async function full(w: World, now: Date, env = w.env): Promise<string> {
  return (await handleHook("UserPromptSubmit", userPromptSubmitHook, input(w), { env: { ...env }, now })).stdout;
}

/** What hooks/user-prompt-submit.ts does: the fast path, else the full hook. */
async function entry(w: World, now: Date, env = w.env): Promise<{ out: string; fast: boolean }> {
  const out = quietPrompt(input(w), { env: { ...env }, now });
  if (out !== undefined) return { out, fast: true };
  return { out: await full(w, now, env), fast: false };
}

/** Every file of the world but the memos, with its content. */
function files(w: World): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (p !== join(w.home, "state", "quiet")) walk(p);
      } else out.set(relative(w.ws, p), readFileSync(p, "latin1"));
    }
  };
  walk(w.ws);
  return out;
}

/**
 * The world's files, to put back after the entry ran: a file whose content changed is rewritten,
 * a new one removed. By content, not mtime: two writes within a millisecond look alike to Deno.
 */
function snapshot(w: World): { restore(): void } {
  const before = new Map<string, Buffer>();
  const walk = (dir: string, visit: (p: string) => void) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p, visit);
      else visit(p);
    }
  };
  walk(w.ws, (p) => before.set(p, readFileSync(p)));
  return {
    restore() {
      walk(w.ws, (p) => {
        if (!before.has(p)) rmSync(p);
      });
      for (const [p, data] of before) {
        if (!existsSync(p) || !readFileSync(p).equals(data)) {
          mkdirSync(join(p, ".."), { recursive: true });
          writeFileSync(p, data);
        }
      }
    },
  };
}

/** Everything in the world as if it had been written a minute ago (prompts come seconds apart). */
function age(w: World): void {
  const then = new Date(Date.now() - 60_000);
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      utimesSync(p, then, then);
    }
  };
  walk(w.ws);
  utimesSync(w.ws, then, then);
}

/** One prompt, checked: the entry and the oracle from the same files give the same output and files. */
async function prompt(w: World, env = w.env): Promise<{ out: string; fast: boolean }> {
  const now = new Date();
  const snap = snapshot(w);
  const got = await entry(w, now, env);
  const gotFiles = files(w);
  // The oracle from the same contents (restoring gives the files the hooks wrote new mtimes, which
  // the full hook does not look at); the world goes on from its state.
  snap.restore();
  const expected = await full(w, now, env);
  const expectedFiles = files(w);
  assert.equal(got.out, expected, `output differs (fast path ${got.fast})`);
  assert.deepEqual([...gotFiles.keys()].sort(), [...expectedFiles.keys()].sort());
  for (const [p, text] of expectedFiles) assert.equal(gotFiles.get(p), text, `${p} differs (fast path ${got.fast})`);
  return got;
}

async function compaction(w: World): Promise<void> {
  const text = JSON.stringify({
    session_id: "sess-1",
    transcript_path: w.transcript,
    cwd: w.ws,
    hook_event_name: "PreCompact",
    trigger: "auto",
    custom_instructions: "",
  });
  await handleHook("PreCompact", preCompactHook, text, { env: { ...w.env }, homeDir: w.home, now: new Date() });
}

/** A world after a compaction whose alert and reminders are used up, aged, with a memo left. */
async function settled(tokens: number): Promise<World> {
  const w = world();
  grow(w, tokens);
  await compaction(w);
  for (let i = 0; i < 4; i++) await prompt(w); // the alert, then three reminders
  age(w);
  assert.equal((await prompt(w)).fast, false);
  assert.ok(existsSync(w.memo), "the quiet prompt left no memo");
  return w;
}

test("quietPrompt() answers the usual prompt as the full hook would, and only while nothing but the fill changed", async () => {
  const w = await settled(130_000); // 65 %: WARNING
  const memo = JSON.parse(readFileSync(w.memo, "utf8"));
  assert.ok(ajvFor("quiet_prompt_memo.v1.json")(memo), "the memo does not match its schema");
  assert.equal(statSync(w.memo).mode & 0o777, 0o600);

  grow(w, 140_000);
  const a = await prompt(w);
  assert.equal(a.fast, true);
  assert.match(a.out, /<context-monitor level=\\"WARNING\\" fill=\\"70\.0%\\" tokens=\\"140000\\"/);
  const state = JSON.parse(readFileSync(join(w.ws, ".jerry", "context-monitor-state.json"), "utf8"));
  assert.equal(state.tokens, 140_000);
  assert.equal(state.fill_fraction, 0.7);

  // The run's file edited: the full hook runs (and, the file being new, leaves no memo yet).
  appendFileSync(join(w.ws, "projects", RUN, "ORCHESTRATION.yaml"), "\n# edited\n");
  assert.equal((await prompt(w)).fast, false);
  assert.equal((await prompt(w)).fast, false);
  age(w);
  assert.equal((await prompt(w)).fast, false); // writes the memo
  assert.equal((await prompt(w)).fast, true);

  // A checkpoint edited in place into another compaction's (its folder unchanged): its alert is due.
  const cx = join(w.ws, ".jerry", "checkpoints", "cx-001-checkpoint.json");
  const edited = { ...JSON.parse(readFileSync(cx, "utf8")), compaction_id: "c-other" };
  writeFileSync(cx, JSON.stringify(edited, null, 2));
  // Rewritten as our own PreCompact would (only checkpoints rehydrate wrote alert: SECURITY.md, rule 4).
  recordCheckpointWritten(join(w.home, "state"), cx, edited);
  const alert = await prompt(w);
  assert.equal(alert.fast, false);
  assert.match(alert.out, /compaction-alert/);
  for (let i = 0; i < 3; i++) await prompt(w); // its reminders
  age(w);
  await prompt(w);
  assert.equal((await prompt(w)).fast, true);
  // The project's config switches the workflow off: no monitor any more, and the everyday fill
  // warning speaks for the fill instead, once.
  mkdirSync(join(w.ws, ".claude"));
  writeFileSync(join(w.ws, ".claude", "rehydrate.json"), JSON.stringify({ orchestration: { enabled: false } }));
  const everyday = await prompt(w);
  assert.equal(everyday.fast, false);
  assert.match(
    everyday.out,
    /^\{"hookSpecificOutput":\{"hookEventName":"UserPromptSubmit","additionalContext":"<context-fill percent=\\"83\\"/,
  );
  assert.deepEqual(await prompt(w), { out: "", fast: false });
  rmSync(join(w.ws, ".claude"), { recursive: true });

  // A user config under another home directory switches the workflow off.
  const other = join(w.ws, ".other-home");
  mkdirSync(join(other, ".claude"), { recursive: true });
  writeFileSync(join(other, ".claude", "rehydrate.json"), JSON.stringify({ orchestration: { enabled: false } }));
  assert.deepEqual(await prompt(w, { ...w.env, HOME: other }), { out: "", fast: false });
  assert.equal((await prompt(w)).fast, true);

  // The compaction's delivery claim is gone: the prompt delivers it again.
  const compactions = join(w.home, "state", "compactions");
  for (const f of readdirSync(compactions)) if (f.endsWith(".delivered")) rmSync(join(compactions, f));
  assert.equal((await prompt(w)).fast, false);
  age(w);
  await prompt(w);
  assert.equal((await prompt(w)).fast, true);

  // SessionStart recorded a 1M-token model: the window, and so the level, change.
  const record = join(w.home, "state", "sessions", "sess-1.json");
  const before = readFileSync(record, "utf8");
  writeFileSync(record, JSON.stringify({ ...JSON.parse(before), model: "claude-opus-4-6[1m]" }));
  assert.deepEqual(await prompt(w), { out: "", fast: false });
  writeFileSync(record, before);

  // Another level: the full hook (CRITICAL's full reminder is due).
  grow(w, 170_000);
  assert.match((await prompt(w)).out, /Checkpoint NOW/);
  // Debugging on: the full hook every time, so the log sees every prompt.
  assert.equal((await prompt(w, { ...w.env, REHYDRATE_DEBUG: "1" })).fast, false);
  // The switch.
  assert.equal((await prompt(w, { ...w.env, REHYDRATE_QUIET: "0" })).fast, false);
});

test("quietPrompt() prints and writes nothing, like the full hook, in a workspace without an orchestrated run", async () => {
  const w = world();
  rmSync(join(w.ws, "projects"), { recursive: true });
  grow(w, 150_000);
  assert.match((await prompt(w)).out, /context-fill percent=\\"89\\"/); // the everyday line, once
  age(w);
  await prompt(w);
  const memo = JSON.parse(readFileSync(w.memo, "utf8"));
  assert.ok(ajvFor("quiet_prompt_memo.v1.json")(memo), "the memo does not match its schema");
  assert.equal(memo.monitor, null);
  assert.equal(memo.fill_warning.crossed, 0.75);
  const a = await prompt(w);
  assert.deepEqual(a, { out: "", fast: true });
  // A run appears: the full hook starts the monitor.
  mkdirSync(join(w.ws, "projects", "PROJ-009"), { recursive: true });
  writeFileSync(join(w.ws, "projects", "PROJ-009", "ORCHESTRATION.yaml"), "resumption:\n  current_phase: 1\n");
  const b = await prompt(w);
  assert.equal(b.fast, false);
  assert.match(b.out, /context-monitor/);
});

test("quietPrompt() keeps the everyday fill warning's once per crossing in an ordinary repository", async () => {
  const w = world();
  rmSync(join(w.ws, "projects"), { recursive: true });
  grow(w, 40_000);
  assert.deepEqual(await prompt(w), { out: "", fast: false });
  age(w);
  assert.deepEqual(await prompt(w), { out: "", fast: false }); // leaves the memo
  assert.deepEqual(await prompt(w), { out: "", fast: true });
  // The fill moves within a level: still the fast path, still nothing.
  grow(w, 85_000);
  assert.deepEqual(await prompt(w), { out: "", fast: true });
  // A crossing: the full hook speaks once.
  grow(w, 100_200);
  const crossing = await prompt(w);
  assert.equal(crossing.fast, false);
  assert.match(
    crossing.out,
    /<context-fill percent=\\"60\\" tokens=\\"100200\\" window=\\"200000\\" compacts-at=\\"167000\\">/,
  );
  // Its state file is seconds old: the memo waits, the full hook says nothing.
  assert.deepEqual(await prompt(w), { out: "", fast: false });
  age(w);
  assert.deepEqual(await prompt(w), { out: "", fast: false });
  grow(w, 104_000);
  assert.deepEqual(await prompt(w), { out: "", fast: true });
  // The state file removed: the full hook would speak again, so the fast path declines.
  const state = join(w.home, "state", "fill", "sess-1.json");
  const kept = readFileSync(state);
  rmSync(state);
  assert.match((await prompt(w)).out, /context-fill/);
  writeFileSync(state, kept, { mode: 0o600 });
  age(w);
  await prompt(w);
  assert.deepEqual(await prompt(w), { out: "", fast: true });
  // Another auto-compact window: not the memo's environment.
  const narrow = { ...w.env, CLAUDE_CODE_AUTO_COMPACT_WINDOW: "150000" };
  const other = await prompt(w, narrow);
  assert.equal(other.fast, false);
  assert.match(other.out, /percent=\\"88\\"/);
  // A compaction: the drop is recorded by the full hook, silently.
  grow(w, 20_000);
  assert.deepEqual(await prompt(w), { out: "", fast: false });
  age(w);
  await prompt(w);
  assert.deepEqual(await prompt(w), { out: "", fast: true });
  // The project turns the line off: the full hook, then nothing at all on the fast path.
  mkdirSync(join(w.ws, ".claude"));
  writeFileSync(join(w.ws, ".claude", "rehydrate.json"), JSON.stringify({ session: { fillWarnings: [] } }));
  grow(w, 190_000);
  assert.deepEqual(await prompt(w), { out: "", fast: false });
  age(w);
  await prompt(w);
  assert.equal(JSON.parse(readFileSync(w.memo, "utf8")).fill_warning, null);
  assert.deepEqual(await prompt(w), { out: "", fast: true });
});

test("after SessionStart's delivery the first prompt runs the full hook for the follow-up; later ones may take the fast path", async () => {
  const w = world();
  rmSync(join(w.ws, "projects"), { recursive: true });
  const row = (uuid: string, fields: Record<string, unknown>) =>
    appendFileSync(w.transcript, JSON.stringify({ uuid, parentUuid: null, isSidechain: false, ...fields }) + "\n");
  row("u1", { type: "user", message: { role: "user", content: "please don't amend commits" } });
  row("u2", { type: "user", message: { role: "user", content: "now run the whole suite" } });
  grow(w, 40_000);
  assert.equal((await prompt(w)).fast, false);
  age(w);
  await prompt(w); // leaves the memo
  assert.deepEqual(await prompt(w), { out: "", fast: true });
  // The compaction: PreCompact's record, the client's boundary and summary (which quotes neither
  // request), and SessionStart's delivery (its claim).
  await compaction(w);
  row("b1", { type: "system", subtype: "compact_boundary", content: "Conversation compacted" });
  row("s1", {
    type: "user",
    isCompactSummary: true,
    message: { role: "user", content: "This session is being continued from a previous conversation. Tests." },
  });
  const start = await handleHook(
    "SessionStart",
    sessionStartHook,
    JSON.stringify({
      session_id: "sess-1",
      transcript_path: w.transcript,
      cwd: w.ws,
      hook_event_name: "SessionStart",
      source: "compact",
    }),
    { env: { ...w.env }, homeDir: w.home, now: new Date() },
  );
  assert.match(start.stdout, /<session-context /);
  assert.ok(readdirSync(join(w.home, "state", "compactions")).some((f) => f.endsWith(".delivered")));
  // Every file a minute old, so that only what the memo depends on can stop the fast path.
  age(w);
  const first = await prompt(w);
  assert.equal(first.fast, false);
  assert.match(first.out, /<session-context source=\\"rehydrate\\" part=\\"after-summary\\"/);
  assert.match(first.out, /please don't amend commits/);
  // Once: the full hook says nothing more, and the memo holds again once the claims are not new.
  assert.deepEqual(await prompt(w), { out: "", fast: false });
  age(w);
  assert.deepEqual(await prompt(w), { out: "", fast: false }); // leaves the memo
  assert.deepEqual(await prompt(w), { out: "", fast: true });
  // The follow-up claim gone, the record kept: the full hook would follow up again, and the memo,
  // which names the compactions folder, sees it.
  const compactions = join(w.home, "state", "compactions");
  for (const f of readdirSync(compactions)) if (f.endsWith(".followup")) rmSync(join(compactions, f));
  const again = await prompt(w);
  assert.equal(again.fast, false);
  assert.match(again.out, /part=\\"after-summary\\"/);
});

test("quietPrompt() agrees with the full hook over random sequences of prompts and changes", async () => {
  let fast = 0;
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const rnd = mulberry32(seed);
    const w = await settled(125_000);
    const log: string[] = [];
    for (let step = 0; step < 60; step++) {
      // Mostly prompts that change only the fill, as in a session; now and then a minute passes
      // (files age past the racy window) or something else changes.
      const r = rnd();
      const what = r < 0.45 ? 0 : r < 0.6 ? 3 : r < 0.65 ? 4 : r < 0.75 ? 5 : 6 + Math.floor(rnd() * 6);
      log.push(String(what));
      const orch = join(w.ws, "projects", RUN, "ORCHESTRATION.yaml");
      const cps = join(w.ws, ".jerry", "checkpoints");
      switch (what) {
        case 0:
          break; // the fill only
        case 3:
          grow(w, 120_000 + Math.floor(rnd() * 40_000));
          break; // WARNING, most of the time
        case 4:
          grow(w, Math.floor(rnd() * 200_000) + 1);
          break; // any level
        case 5:
          age(w);
          break;
        case 6:
          appendFileSync(orch, "# edited\n");
          break;
        case 7: {
          const names = existsSync(cps) ? readdirSync(cps).filter((n) => n.endsWith(".json")) : [];
          if (names.length > 0) {
            const p = join(cps, names[names.length - 1]);
            // Acknowledged (changes nothing once the reminders are used up), or edited in place
            // into another compaction's (whose alert is due).
            const edit = rnd() < 0.5 ? { acknowledged: true } : { acknowledged: false, compaction_id: `c${step}` };
            writeFileSync(p, JSON.stringify({ ...JSON.parse(readFileSync(p, "utf8")), ...edit }, null, 2));
          }
          break;
        }
        case 8:
          await compaction(w);
          break;
        case 9: {
          const dir = join(w.ws, ".claude");
          if (existsSync(join(dir, "rehydrate.json"))) rmSync(join(dir, "rehydrate.json"));
          else {
            mkdirSync(dir, { recursive: true });
            const config = rnd() < 0.5 ? { thresholds: { warning: 0.5 }, reminderMax: 1 } : { enabled: false };
            writeFileSync(join(dir, "rehydrate.json"), JSON.stringify({ orchestration: config }));
          }
          break;
        }
        case 10: {
          const p = join(w.ws, ".jerry", "context-monitor-state.json");
          if (existsSync(p)) {
            writeFileSync(
              p,
              JSON.stringify({ ...JSON.parse(readFileSync(p, "utf8")), session_id: "another" }, null, 2) + "\n",
            );
          }
          break;
        }
        case 11: {
          const extra = join(w.ws, "projects", "PROJ-003");
          if (existsSync(extra)) rmSync(extra, { recursive: true });
          else {
            mkdirSync(extra);
            writeFileSync(join(extra, "ORCHESTRATION.yaml"), "resumption:\n  current_phase: 2\n");
          }
          break;
        }
      }
      try {
        if ((await prompt(w)).fast) fast++;
      } catch (err) {
        throw new Error(`seed ${seed}, step ${step} (changes ${log.join(",")}): ${(err as Error).message}`);
      }
    }
  }
  // The check means something only if the fast path ran: most steps change nothing but the fill.
  assert.ok(fast >= 30, `the fast path answered only ${fast} of 360 prompts`);
});

/** Every path into a JSON value (keys and indexes), the root excluded. */
function jsonPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null) return [];
  const out: (string | number)[][] = [];
  for (const [k, v] of Object.entries(value)) {
    const key = Array.isArray(value) ? Number(k) : k;
    out.push([...at, key], ...jsonPaths(v, [...at, key]));
  }
  return out;
}

const ODD_VALUES: unknown[] = [
  null,
  0,
  -1,
  1e308,
  "",
  "x",
  "../../../etc/passwd",
  [],
  {},
  true,
  "WARNING",
  "CRITICAL",
  "x".repeat(70_000),
];

/** The memo's text with one random damage, or a directory or symbolic link in its place. */
function damagedMemo(good: string, rnd: () => number): { label: string; text?: string; special?: "dir" | "link" } {
  const r = rnd();
  if (r < 0.06) return { label: "a directory", special: "dir" };
  if (r < 0.12) return { label: "a symbolic link to the good memo", special: "link" };
  if (r < 0.22) {
    const at = Math.floor(rnd() * good.length);
    return { label: `truncated at ${at}`, text: good.slice(0, at) };
  }
  if (r < 0.3) {
    const at = Math.floor(rnd() * good.length);
    const ch = String.fromCharCode(32 + Math.floor(rnd() * 95));
    return { label: `byte ${at} -> ${JSON.stringify(ch)}`, text: good.slice(0, at) + ch + good.slice(at + 1) };
  }
  if (r < 0.36) {
    const texts = ["", "null", "[]", "{}", "0", good + " ".repeat(300 * 1024)];
    const i = Math.floor(rnd() * texts.length);
    return { label: `whole file ${i}`, text: texts[i] };
  }
  const memo = JSON.parse(good);
  const paths = jsonPaths(memo);
  const path = paths[Math.floor(rnd() * paths.length)];
  // deno-lint-ignore no-explicit-any -- walks a JSON document by a path of keys
  const parent = path.slice(0, -1).reduce((o: any, k) => o[k], memo);
  const key = path[path.length - 1];
  if (rnd() < 0.25) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
    return { label: `${path.join(".")} removed`, text: JSON.stringify(memo) };
  }
  const value = ODD_VALUES[Math.floor(rnd() * ODD_VALUES.length)];
  parent[key] = value;
  return { label: `${path.join(".")} = ${JSON.stringify(value)?.slice(0, 30)}`, text: JSON.stringify(memo) };
}

test("a damaged memo never changes the answer: the fast path declines, or answers as the full hook would", async () => {
  // The memo is a cache in the owner-only state directory; whatever it holds, the prompt's output
  // and files must be the full hook's (prompt() checks both against it). The fuzzer cannot reach
  // the fast path: its worlds are too new for a memo to be written.
  const w = await settled(130_000);
  const good = readFileSync(w.memo, "utf8");
  assert.equal((await prompt(w)).fast, true, "the undamaged memo is not used");
  const rnd = mulberry32(20261124);
  let fast = 0;
  let declined = 0;
  for (let i = 0; i < 120; i++) {
    const d = damagedMemo(good, rnd);
    rmSync(w.memo, { recursive: true, force: true });
    if (d.special === "dir") mkdirSync(w.memo);
    else if (d.special === "link") {
      writeFileSync(join(w.home, "memo-copy.json"), good);
      symlinkSync(join(w.home, "memo-copy.json"), w.memo);
    } else writeFileSync(w.memo, d.text!, { mode: 0o600 });
    try {
      if ((await prompt(w)).fast) fast++;
      else declined++;
    } catch (err) {
      throw new Error(`damage ${i} (${d.label}): ${(err as Error).message}`);
    }
    rmSync(join(w.home, "memo-copy.json"), { force: true });
  }
  // Both outcomes happen, or the check says little: most damage is refused, some is harmless.
  assert.ok(declined >= 60, `the fast path declined only ${declined} of 120 damaged memos`);
  assert.ok(fast >= 5, `the fast path answered from only ${fast} of 120 damaged memos`);
});

test("a damaged memo in an ordinary repository never changes the answer either", async () => {
  const w = world();
  rmSync(join(w.ws, "projects"), { recursive: true });
  const state = join(w.home, "state", "fill", "sess-1.json");
  // The fill at 62 %, the level on record 0.55, aged, and the memo the next prompt leaves.
  const settle = async (): Promise<string> => {
    grow(w, 103_500);
    await prompt(w);
    age(w);
    await prompt(w);
    return readFileSync(w.memo, "utf8");
  };
  let good = await settle();
  assert.equal(JSON.parse(good).fill_warning.crossed, 0.55);
  assert.equal((await prompt(w)).fast, true, "the undamaged memo is not used");
  const rnd = mulberry32(20261125);
  let fast = 0;
  for (let i = 0; i < 60; i++) {
    const d = damagedMemo(good, rnd);
    rmSync(w.memo, { recursive: true, force: true });
    if (d.special === "dir") mkdirSync(w.memo);
    else if (d.special === "link") {
      writeFileSync(join(w.home, "memo-copy.json"), good);
      symlinkSync(join(w.home, "memo-copy.json"), w.memo);
    } else writeFileSync(w.memo, d.text!, { mode: 0o600 });
    // Every other time the fill has reached the next level, where the full hook speaks.
    const crossing = i % 2 === 1;
    if (crossing) grow(w, 112_000);
    try {
      if ((await prompt(w)).fast) fast++;
    } catch (err) {
      throw new Error(`damage ${i} (${d.label}): ${(err as Error).message}`);
    }
    rmSync(join(w.home, "memo-copy.json"), { force: true });
    rmSync(w.memo, { recursive: true, force: true });
    if (crossing) {
      // Back to the level on record, with a fresh memo.
      rmSync(state);
      good = await settle();
    } else writeFileSync(w.memo, good, { mode: 0o600 });
  }
  assert.ok(fast >= 3, `the fast path answered from only ${fast} of 60 damaged memos`);
});

test("the memo waits while a folder holding a file it depends on changed in the last seconds", async () => {
  // A config file removed while the hook ran would leave a memo saying "no config" for an answer
  // computed with one: a missing file is trusted only when its folder is not new.
  const w = await settled(130_000);
  rmSync(w.memo);
  mkdirSync(join(w.ws, ".claude")); // where the project's config would be: changed just now
  assert.equal((await prompt(w)).fast, false);
  assert.equal(existsSync(w.memo), false);
  age(w);
  assert.equal((await prompt(w)).fast, false);
  assert.equal(existsSync(w.memo), true);
  assert.equal((await prompt(w)).fast, true);
});

test("writeQuietMemo() writes no memo when the run its answer was for is gone by the time it looks", async () => {
  const w = await settled(130_000);
  const facts: QuietFacts[] = [];
  const write = () =>
    inHook(w.ws, "UserPromptSubmit", { transcript_path: w.transcript, prompt: "go" }, (ctx) => {
      orchestrationPromptContext(ctx, { onQuiet: (f) => facts.push(f) });
      age(w);
      return writeQuietMemo(ctx, facts[facts.length - 1], 10_000);
    }, { now: new Date() });
  assert.equal(await write(), true);
  const run = join(w.ws, "projects", RUN, "ORCHESTRATION.yaml");
  const text = readFileSync(run, "utf8");
  // Removed between the answer and the memo: the answer was for a run the memo would call absent.
  const gone = await inHook(w.ws, "UserPromptSubmit", { transcript_path: w.transcript, prompt: "go" }, (ctx) => {
    orchestrationPromptContext(ctx, { onQuiet: (f) => facts.push(f) });
    rmSync(run);
    age(w);
    return writeQuietMemo(ctx, facts[facts.length - 1], 10_000);
  }, { now: new Date() });
  assert.equal(gone, false);
  writeFileSync(run, text);
});
