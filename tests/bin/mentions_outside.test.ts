// Issue #22, finding V6 (rule 2), on the compiled binaries: a tool's output naming `../.npmrc` (the
// repository's own test output, say) put `~/.npmrc` on the "re-read these project files" list of
// the PreToolUse deny, in the summarizer's instructions and in <working-set>. Replayed as Claude
// Code runs the hooks with `reread.enforce: true`: PreCompact, then the first tool call after it,
// then SessionStart(compact); no file list or pointer in them may name `.npmrc`. The one place
// the name may appear is the test run's own output line, quoted word for word as how `npm test`
// ended (the summarizer's list of commands, <command failure="…">): the model saw that line, and
// it is shown as the command's outcome, not as a file to read.
//
// MENTIONS_OUTSIDE_DIST=<dir> runs the same tests against other binaries (how they were shown to
// fail on the code before the rule: SECURITY.md, "Nothing outside the project").
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, EXE, FIXTURES, ROOT } from "./_bin.ts";

const DIST = process.env.MENTIONS_OUTSIDE_DIST;
const exe = (name: string): string => (DIST ? join(DIST, name + EXE) : bin(name));
const posix = process.platform !== "win32";

const SESSION = "5e5510a0-6b7c-4d8e-9f01-2a3b4c5d6e7f";
/** The test run's output, which names `../.npmrc`. */
const FAILURE = "npm ERR! 401 Unauthorized: see ../.npmrc for the registry token";
const SCRATCH = mkdtempSync(join(tmpdir(), "rehydrate-mentions-"));
after(() => rmSync(SCRATCH, { recursive: true, force: true }));

interface World {
  project: string;
  transcript: string;
  env: Record<string, string | undefined>;
}

let count = 0;
/**
 * A fake HOME holding `.npmrc`, the project at `~/repo` (so `../.npmrc` is `~/.npmrc`) with
 * `reread.enforce: true`, and a transcript in which the agent edits a project file and a test
 * run's output says "see ../.npmrc".
 */
function world(layout: "projects" | "plain"): World {
  const base = join(SCRATCH, String(count++));
  const home = join(base, "home");
  const project = join(home, "repo");
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, ".npmrc"), "registry=https://registry.example.invalid/\n");
  if (layout === "projects") cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
  else mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
  writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify({ reread: { enforce: true } }));
  const edited = layout === "projects"
    ? join(project, "02-projects", "01-website-redesign", "03-working", "pricing-table.tsx")
    : join(project, "src", "app.ts");
  if (layout === "plain") writeFileSync(edited, "export const x = 1;\n");
  let n = 0;
  const row = (type: "user" | "assistant", content: unknown) => ({
    type,
    uuid: `r${n}`,
    parentUuid: n === 0 ? null : `r${n - 1}`,
    isSidechain: false,
    sessionId: SESSION,
    cwd: project,
    timestamp: new Date(Date.UTC(2026, 10, 25, 12, 0, n++)).toISOString(),
    message: type === "user" ? { role: "user", content } : {
      id: `msg_${n}`,
      model: "claude-opus-4-6",
      role: "assistant",
      content,
      usage: { input_tokens: 3, cache_read_input_tokens: 20_000, cache_creation_input_tokens: 0, output_tokens: 5 },
    },
  });
  const use = (id: string, name: string, input: Record<string, unknown>) =>
    row("assistant", [{ type: "tool_use", id, name, input }]);
  const result = (id: string, content: string) => row("user", [{ type: "tool_result", tool_use_id: id, content }]);
  const rows = [
    row("user", "fix the failing test"),
    use("t1", "Read", { file_path: edited }),
    result("t1", "export const x = 1;"),
    use("t2", "Edit", { file_path: edited, old_string: "1", new_string: "2" }),
    result("t2", "The file has been updated."),
    use("t3", "Bash", { command: "npm test" }),
    result("t3", `${FAILURE}\n`),
    row("assistant", [{ type: "text", text: "The tests need the token in ../.npmrc; I will check it next." }]),
  ];
  const transcript = join(base, `${SESSION}.jsonl`);
  writeFileSync(transcript, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    REHYDRATE_STATE_DIR: join(base, "state"),
  };
  return { project, transcript, env };
}

const TEMPLATE: Record<string, string> = {
  "pre-compact": "PreCompact-auto.json",
  "session-start": "SessionStart-compact.json",
  "pre-tool-use": "PreToolUse-Read.json",
};

/** Runs one hook binary as Claude Code does: the captured payload, this session, the project as cwd. */
function hook(w: World, name: string, extra: Record<string, unknown> = {}): string {
  const input = {
    ...JSON.parse(readFileSync(join(FIXTURES, "hook-inputs", TEMPLATE[name]), "utf8")),
    session_id: SESSION,
    transcript_path: w.transcript,
    cwd: w.project,
    ...extra,
  };
  const r = spawnSync(exe(name), [], {
    input: JSON.stringify(input),
    cwd: w.project,
    env: w.env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 20_000,
  });
  assert.equal(r.status, 0, `${name} exits 0: ${r.stderr}`);
  return r.stdout ?? "";
}

describe("a path only named in the transcript is never a project file (issue #22, V6)", () => {
  for (const layout of ["projects", "plain"] as const) {
    test(`${layout}: PreCompact, the deny after it and SessionStart(compact) never name ../.npmrc`, {
      skip: !posix,
    }, () => {
      const w = world(layout);
      const preCompact = hook(w, "pre-compact");
      const deny = hook(w, "pre-tool-use", { tool_name: "Bash", tool_input: { command: "ls" } });
      const sessionStart = hook(w, "session-start");
      // The enforcement ran: the first tool call after the compaction is denied with the edited file.
      assert.match(deny, /"permissionDecision":\s*"deny"/, deny);
      assert.match(deny, layout === "projects" ? /pricing-table\.tsx/ : /app\.ts/, deny);
      assert.ok(preCompact.trim() !== "", "PreCompact prints summarizer instructions");
      // The test run's output line may stand once, as the outcome of the command that printed it.
      const asRun = `"npm test" (exit 0: ${JSON.stringify(FAILURE)})`;
      const asElement = `<command exit=\\"0\\" failure=\\"${FAILURE}\\">npm test</command>`;
      const outputs = {
        PreCompact: preCompact.replace(asRun, ""),
        PreToolUse: deny,
        SessionStart: sessionStart.replace(asElement, ""),
      };
      const naming = Object.entries(outputs).filter(([, out]) => out.includes(".npmrc")).map(([name]) => name);
      assert.deepEqual(
        naming,
        [],
        `outputs that name .npmrc:\n${naming.map((k) => outputs[k as keyof typeof outputs]).join("\n")}`,
      );
      // And it does: the commands are quoted with how they ended, the line word for word.
      assert.ok(preCompact.includes(asRun), `PreCompact quotes the run: ${preCompact}`);
      assert.ok(sessionStart.includes(asElement), `SessionStart quotes the run: ${sessionStart}`);
    });
  }
});
