// hooks/rehydrate.ts run from source, as `bun hooks/rehydrate.ts <hook>` and `deno run -A
// hooks/rehydrate.ts <hook>` do: the dispatcher require()s (Bun) or import()s (Deno) the hook's
// own entry, or the CLI's. tests/bin/build.test.ts checks the same in the compiled binary.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../../lib/hook/version.ts";
import { writeDemoTranscript } from "../../examples/demo_transcript.ts";

const ROOT = join(import.meta.dirname!, "..", "..");
const RUNTIME = "Deno" in globalThis ? [process.execPath, "run", "-A"] : [process.execPath];

function rehydrate(args: string[], stdin = "", env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), "rehydrate-multicall-"));
  try {
    return spawnSync(RUNTIME[0], [...RUNTIME.slice(1), join(ROOT, "hooks", "rehydrate.ts"), ...args], {
      input: stdin,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        REHYDRATE_STATE_DIR: join(home, "state"),
        NO_COLOR: "1",
        ...env,
      },
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

test("rehydrate <hook> runs that hook's entry with the arguments after its name", () => {
  const help = rehydrate(["stop", "--help"]);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^stop \S+: the rehydrate Stop hook/);
  const bad = rehydrate(["user-prompt-submit"], "{ not json");
  assert.equal(bad.status, 0, bad.stderr);
  assert.equal(bad.stdout, "");
});

test("rehydrate --version answers itself; anything else is the CLI's", () => {
  assert.equal(rehydrate(["--version"]).stdout, `${VERSION}\n`);
  const status = rehydrate(["status", "--help"]);
  assert.equal(status.status, 0, status.stderr);
  assert.match(status.stdout, /Usage: rehydrate status/);
  const unknown = rehydrate(["frobnicate"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^rehydrate: unknown command "frobnicate"\nTry 'rehydrate --help'\.\n$/);
  assert.match(rehydrate(["--help"]).stdout, /^rehydrate \S+: compaction-survival hooks/);
});

test("rehydrate pre-compact loads the workflows' parts from source too: require() in Bun, import() in Deno", () => {
  // hooks/pre-compact.ts loads hooks/pre-compact-workflows.ts by a computed name only when a layout
  // asks for it; the project's lines of the summarizer instructions come from there.
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-multicall-workspace-"));
  try {
    const project = join(dir, "workspace");
    cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
    const sessionId = "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
    const transcript = join(dir, `${sessionId}.jsonl`);
    writeDemoTranscript(transcript, { projectDir: project, sessionId });
    const input = {
      session_id: sessionId,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: "PreCompact",
      trigger: "manual",
    };
    const r = rehydrate(["pre-compact"], JSON.stringify(input), { CLAUDE_PROJECT_DIR: project });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^rehydrate, to the summarizer of this conversation/);
    // Written by the project layer alone (the everyday lines name the project's files too).
    const flat = JSON.parse(readFileSync(join(project, "00-system", ".cache", "precompact_state.json"), "utf8"));
    assert.equal(flat.active_project_id, "01-website-redesign");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
