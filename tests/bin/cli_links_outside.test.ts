// On the compiled binaries (REHYDRATE_TEST_DIST picks them):
//
// Rule 2 of SECURITY.md in the CLI verbs: `rehydrate status`, `doctor` and `validate` in a hostile
// repository whose 00-system/.cache, .jerry or project folder links out of the project name the
// refused folder or file in one neutral line and print nothing of what it holds (canary files in a
// fake HOME), as the hooks and `migrate --apply` already did.
// `rehydrate validate` knows the everyday state files: the fill warning's fill/<session>.json and
// the usual prompt's memo quiet/<session>.json, as the real hook writes them.
// SessionStart sweeps fill/ and quiet/ files not written for seven days, never through a link.
//
// Every test fails on the binaries of f2fa902 (REHYDRATE_TEST_DIST=/tmp/base) and passes now.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, ROOT, run } from "./_bin.ts";

const posix = process.platform !== "win32";
const CANARY = "CANARYlinks5b2e";
const SCRATCH = mkdtempSync(join(tmpdir(), "rehydrate-cli-links-"));
after(() => rmSync(SCRATCH, { recursive: true, force: true }));

interface World {
  base: string;
  home: string;
  project: string;
  state: string;
  env: Record<string, string | undefined>;
}

let count = 0;
/** A fake HOME with canaries, and the example workspace (plus one orchestration run) beside it. */
function world(): World {
  const base = join(SCRATCH, String(count++));
  const home = join(base, "home");
  const project = join(base, "work", "repo");
  const state = join(base, "state");
  mkdirSync(join(home, "cache"), { recursive: true });
  mkdirSync(join(home, "jerry", "checkpoints"), { recursive: true });
  mkdirSync(join(home, "01-planning"), { recursive: true });
  writeFileSync(
    join(home, "cache", "precompact_state.json"),
    JSON.stringify({ active_project_id: `${CANARY}-project`, confidence: "high", detection_method: "x" }),
  );
  writeFileSync(
    join(home, "jerry", "checkpoints", "cx-001-checkpoint.json"),
    JSON.stringify({ checkpoint_id: `${CANARY}-checkpoint`, acknowledged: false }),
  );
  writeFileSync(join(home, "jerry", "checkpoints", "cx-002-checkpoint.json"), `${CANARY}-json is not JSON\n`);
  writeFileSync(join(home, "01-planning", "resume-context.md"), `---\nproject_id: [${CANARY}-manifest\n---\n`);
  cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
  mkdirSync(join(project, "projects", "PROJ-001"), { recursive: true });
  writeFileSync(join(project, "projects", "PROJ-001", "ORCHESTRATION.yaml"), "workflow:\n  id: w\n");
  const env = { PATH: process.env.PATH, HOME: home, CLAUDE_PROJECT_DIR: project, REHYDRATE_STATE_DIR: state };
  return { base, home, project, state, env };
}

/** The hostile repository: its 00-system/.cache, .jerry and one project folder link into HOME. */
function hostile(): World {
  const w = world();
  symlinkSync(join("..", "..", "..", "home", "cache"), join(w.project, "00-system", ".cache"));
  symlinkSync(join("..", "..", "home", "jerry"), join(w.project, ".jerry"));
  symlinkSync(w.home, join(w.project, "02-projects", "05-home"));
  return w;
}

function cli(w: World, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(bin("rehydrate"), args, {
    cwd: w.project,
    env: w.env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, out: (r.stdout ?? "") + (r.stderr ?? "") };
}

describe("status, doctor and validate read nothing through a link out of the project", () => {
  test("rehydrate status names the linked state file and checkpoints in one line and shows nothing of them", {
    skip: !posix,
  }, () => {
    const w = hostile();
    const text = cli(w, ["status"]);
    assert.equal(text.status, 0, text.out);
    assert.ok(!text.out.includes(CANARY), text.out);
    assert.match(
      text.out,
      /\n00-system\/\.cache\/precompact_state\.json, \.jerry\/checkpoints resolve outside the project \(symbolic links\); not read\n/,
    );
    const json = cli(w, ["status", "--json"]);
    assert.equal(json.status, 0, json.out);
    assert.ok(!json.out.includes(CANARY), json.out);
    assert.deepEqual(JSON.parse(json.out).refused, ["00-system/.cache/precompact_state.json", ".jerry/checkpoints"]);
  });

  test("rehydrate doctor fails the files check in one line and quotes nothing of the linked folders", {
    skip: !posix,
  }, () => {
    const w = hostile();
    const r = cli(w, ["doctor", "--no-latency"]);
    assert.equal(r.status, 1, r.out);
    assert.ok(!r.out.includes(CANARY), r.out);
    assert.ok(!r.out.includes("05-home/"), `a file in the linked folder is named:\n${r.out}`);
    assert.match(
      r.out,
      /\nfail {2}files {7}02-projects\/05-home, \.jerry resolve outside the project \(symbolic links\); not read; the hooks ignore them too\n/,
    );
    assert.match(
      r.out,
      /\nfail {2}files {7}\S+\/00-system\/\.cache\/precompact_state\.json: not read: it resolves outside \S+ \(a symbolic link\)/,
    );
  });

  test("rehydrate validate refuses files a link leads out of, in one line each, and still reads the project's", {
    skip: !posix,
  }, () => {
    const w = hostile();
    const files = [
      "02-projects/05-home/01-planning/resume-context.md",
      ".jerry/checkpoints/cx-002-checkpoint.json",
      join(w.project, "00-system", ".cache", "precompact_state.json"),
      "02-projects/01-website-redesign/01-planning/resume-context.md",
    ];
    const r = cli(w, ["validate", ...files]);
    assert.equal(r.status, 1, r.out);
    assert.ok(!r.out.includes(CANARY), r.out);
    const lines = r.out.trimEnd().split("\n");
    for (const [i, f] of files.slice(0, 3).entries()) {
      assert.equal(lines[i], `${f}: not read: it resolves outside ${w.project} (a symbolic link)`);
    }
    assert.equal(lines[3], `${files[3]}: ok (manifest)`);
    assert.equal(lines[4], "1 of 4 files valid");
    // A file the user names outside the project is theirs to check.
    const own = cli(w, ["validate", join(w.home, "cache", "precompact_state.json")]);
    assert.match(own.out, /precompact_state\.json: (ok|legacy) \(precompact_state\)|precompact_state\.json:\d+: /);
  });
});

/** A transcript whose last assistant row totals `tokens` of context. */
function transcript(path: string, tokens: number): void {
  writeFileSync(
    path,
    JSON.stringify({
      type: "assistant",
      uuid: "a1",
      parentUuid: null,
      isSidechain: false,
      message: {
        id: "msg_a1",
        model: "claude-opus-4-6",
        role: "assistant",
        content: [{ type: "text", text: "ok" }],
        usage: { input_tokens: 3, cache_creation_input_tokens: 1000, cache_read_input_tokens: tokens - 1003 },
      },
    }) + "\n",
  );
}

/** An ordinary repository: no workflow, so the everyday fill warning speaks. */
function plainRepo(): World & { transcript: string } {
  const base = join(SCRATCH, String(count++));
  const home = join(base, "home");
  const project = join(base, "repo");
  const state = join(base, "state");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, "src", "main.ts"), "export {};\n");
  const env = { PATH: process.env.PATH, HOME: home, CLAUDE_PROJECT_DIR: project, REHYDRATE_STATE_DIR: state };
  return { base, home, project, state, env, transcript: join(home, "t.jsonl") };
}

function backdate(dir: string, then: Date): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) backdate(join(dir, e.name), then);
    utimesSync(join(dir, e.name), then, then);
  }
  utimesSync(dir, then, then);
}

function prompt(w: ReturnType<typeof plainRepo>, session: string): string {
  const input = {
    session_id: session,
    transcript_path: w.transcript,
    cwd: w.project,
    hook_event_name: "UserPromptSubmit",
    prompt: "go on",
  };
  const r = run(bin("user-prompt-submit"), [], { env: w.env as Record<string, string>, stdin: JSON.stringify(input) });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout === "" ? "" : JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
}

describe("the everyday state files", () => {
  test("rehydrate validate tells fill/<session>.json and quiet/<session>.json as the hook writes them", () => {
    const w = plainRepo();
    transcript(w.transcript, 120_000); // 71 % of the 167,000 tokens at which a 200k window compacts
    assert.match(prompt(w, "sess-a"), /<context-fill percent="71"/);
    // Everything as if written a minute ago: the memo trusts no file changed in the last seconds.
    backdate(w.base, new Date(Date.now() - 60_000));
    prompt(w, "sess-a");
    const fill = join(w.state, "fill", "sess-a.json");
    const memo = join(w.state, "quiet", "sess-a.json");
    assert.ok(existsSync(fill), "the hook wrote its fill level");
    assert.ok(existsSync(memo), "the hook wrote its memo");
    const r = cli(w, ["validate", fill, memo]);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /fill\/sess-a\.json: ok \(fill_warning_state\)\n/);
    assert.match(r.out, /quiet\/sess-a\.json: ok \(quiet_prompt_memo\)\n/);
    writeFileSync(
      fill,
      JSON.stringify({ schema_version: 1, session_id: "s", crossed: 3, percent: 1, updated_at: "x" }),
    );
    const bad = cli(w, ["validate", fill]);
    assert.equal(bad.status, 1);
    assert.match(bad.out, /sess-a\.json:1: crossed: /);
  });

  test("SessionStart sweeps fill/ and quiet/ files not written for seven days, and no link", { skip: !posix }, () => {
    const w = plainRepo();
    const old = new Date(Date.now() - 8 * 86_400_000);
    const kept = join(w.base, "kept.json");
    writeFileSync(kept, "{}\n");
    for (const folder of ["fill", "quiet"]) {
      mkdirSync(join(w.state, folder), { recursive: true, mode: 0o700 });
      for (const name of ["old-1.json", "old-2.json", "young.json"]) {
        writeFileSync(join(w.state, folder, name), "{}\n", { mode: 0o600 });
      }
      for (const name of ["old-1.json", "old-2.json"]) utimesSync(join(w.state, folder, name), old, old);
      symlinkSync(kept, join(w.state, folder, "link.json"));
      lutimesSync(join(w.state, folder, "link.json"), old, old);
    }
    utimesSync(kept, old, old);
    transcript(w.transcript, 20_000);
    const input = {
      session_id: "sess-b",
      transcript_path: w.transcript,
      cwd: w.project,
      hook_event_name: "SessionStart",
      source: "startup",
    };
    const r = run(bin("session-start"), [], { env: w.env as Record<string, string>, stdin: JSON.stringify(input) });
    assert.equal(r.status, 0, r.stderr);
    for (const folder of ["fill", "quiet"]) {
      assert.deepEqual(readdirSync(join(w.state, folder)).sort(), ["link.json", "young.json"], folder);
    }
    assert.ok(existsSync(kept), "the link's target is kept");
  });
});
