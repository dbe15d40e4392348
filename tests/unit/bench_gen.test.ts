// The benchmark's input generators and its peers: small inputs only, nothing timed.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { ACTIVE_PROJECT, ORCHESTRATION_DIR, PROJECTS, writeWorkspace } from "../../bench/gen/workspace.ts";
import { FINAL_CONTEXT_TOKENS, transcriptLines, writeTranscript } from "../../bench/gen/transcript.ts";
import { HOOK_CASES, hookInput } from "../../bench/gen/inputs.ts";

const ROOT = join(import.meta.dirname!, "..", "..");
const tmp = mkdtempSync(join(tmpdir(), "bench-gen-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const ws = join(tmp, "ws");
writeWorkspace(ws);
const transcriptPath = join(tmp, "t.jsonl");
const written = writeTranscript(transcriptPath, { targetBytes: 1_500_000, workspace: ws, sessionId: "s-1", seed: 3 });
const rows = readFileSync(transcriptPath, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));

function frontmatter(path: string): Record<string, unknown> {
  const text = readFileSync(path, "utf8");
  const end = text.indexOf("\n---", 3);
  return parseYaml(text.slice(4, end)) as Record<string, unknown>;
}

describe("bench workspace", () => {
  test("writeWorkspace() writes 40 projects, each with a manifest whose files_to_load exist", () => {
    const projects = readdirSync(join(ws, "02-projects")).sort();
    assert.deepEqual(projects, [...PROJECTS].sort());
    assert.equal(projects.length, 40);
    for (const id of projects) {
      const planning = join(ws, "02-projects", id, "01-planning");
      const manifest = existsSync(join(planning, "resume-context.md"))
        ? join(planning, "resume-context.md")
        : join(planning, "_resume.md");
      const fm = frontmatter(manifest);
      assert.equal(fm.project_id, id);
      for (const f of fm.files_to_load as string[]) {
        assert.ok(existsSync(join(ws, "02-projects", id, f)), `${id}: ${f}`);
      }
    }
  });

  test("writeWorkspace() writes 24 skills with name and description frontmatter", () => {
    const skills: string[] = [];
    for (const cat of readdirSync(join(ws, "00-system", "skills"))) {
      for (const name of readdirSync(join(ws, "00-system", "skills", cat))) {
        const fm = frontmatter(join(ws, "00-system", "skills", cat, name, "SKILL.md"));
        assert.equal(fm.name, name);
        assert.equal(typeof fm.description, "string");
        skills.push(name);
      }
    }
    assert.equal(skills.length, 24);
  });

  test("the orchestration run's ORCHESTRATION.yaml parses and has a resumption section", () => {
    const doc = parseYaml(readFileSync(join(ws, ORCHESTRATION_DIR, "ORCHESTRATION.yaml"), "utf8"));
    assert.equal(doc.resumption.current_phase, 2);
    assert.equal(doc.resumption.files_to_read.length, 3);
    assert.match(doc.resumption.next_step, /^Continue QG-2/);
  });
});

describe("bench transcript", () => {
  test("writeTranscript() streams exactly what transcriptLines() yields, at least the target size", () => {
    const text = [...transcriptLines({ targetBytes: 1_500_000, workspace: ws, sessionId: "s-1", seed: 3 })].join("");
    assert.equal(readFileSync(transcriptPath, "utf8"), text);
    assert.equal(statSync(transcriptPath).size, written);
    assert.ok(written >= 1_500_000);
  });

  test("the transcript holds the row kinds the hooks must skip or use", () => {
    // deno-lint-ignore no-explicit-any -- generated rows of every kind
    const has = (pred: (r: Record<string, any>) => boolean) => rows.some(pred);
    assert.ok(has((r) => r.type === "system" && r.subtype === "compact_boundary"));
    assert.ok(has((r) => r.isSidechain === true));
    assert.ok(has((r) => r.type === "progress" && r.data?.type === "agent_progress"));
    assert.ok(has((r) => r.isCompactSummary === true));
    const ids = rows.filter((r) => r.type === "assistant").map((r) => r.message.id);
    assert.ok(new Set(ids).size < ids.length, "assistant rows share message.id (one row per content block)");
  });

  test("the last main-chain assistant row carries the agreed context size", () => {
    const last = rows.filter((r) => r.type === "assistant" && !r.isSidechain).at(-1)!;
    const u = last.message.usage;
    assert.equal(u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens, FINAL_CONTEXT_TOKENS);
  });

  test("the recent tool calls work on the active project", () => {
    const paths = rows.slice(-Math.floor(rows.length / 5)).filter((r) => r.type === "assistant")
      .flatMap((r) => r.message.content as { type: string; input?: { file_path?: string } }[])
      .filter((b) => b.type === "tool_use" && b.input?.file_path)
      .map((b) => b.input!.file_path as string).filter((p) => p.includes("/02-projects/"));
    assert.ok(paths.length > 5);
    const active = paths.filter((p) => p.includes(`/02-projects/${ACTIVE_PROJECT}/`)).length;
    assert.ok(active / paths.length > 0.8, `${active} of ${paths.length}`);
  });
});

describe("bench hook inputs", () => {
  for (const c of HOOK_CASES) {
    test(`hookInput("${c.id}") names the event and points at the session's files`, () => {
      const input = JSON.parse(hookInput(c.id, { sessionId: "s-1", transcriptPath, cwd: ws }));
      assert.equal(input.hook_event_name, c.event);
      assert.equal(input.session_id, "s-1");
      assert.equal(input.transcript_path, transcriptPath);
      assert.equal(input.cwd, ws);
    });
  }
  test("the bare post-tool-use case is the usual tool call; @orchestration edits ORCHESTRATION.yaml", () => {
    const edited = (id: string) =>
      JSON.parse(hookInput(id, { sessionId: "s", transcriptPath, cwd: ws })).tool_input.file_path as string;
    assert.ok(!edited("post-tool-use").endsWith("ORCHESTRATION.yaml"), edited("post-tool-use"));
    assert.ok(edited("post-tool-use@orchestration").endsWith("/ORCHESTRATION.yaml"));
  });
  test("hookInput() refuses an unknown case", () => {
    assert.throws(() => hookInput("nope", { sessionId: "s", transcriptPath: "t", cwd: "w" }));
  });
});

const python = spawnSync("python3", ["--version"]).status === 0;

describe("bench peers", () => {
  const runPeer = (cmd: string, file: string, caseId: string) => {
    const r = spawnSync(cmd, [join(ROOT, "bench", "peers", file)], {
      input: hookInput(caseId, { sessionId: "s-1", transcriptPath, cwd: ws }),
      env: { ...process.env, CLAUDE_PROJECT_DIR: ws },
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const state = () => JSON.parse(readFileSync(join(ws, "00-system", ".cache", "precompact_state.json"), "utf8"));

  test("the Node and Python PreCompact peers find the same active project", { skip: !python && "no python3" }, () => {
    runPeer("node", "pre-compact.mjs", "pre-compact");
    const fromNode = state();
    runPeer("python3", "pre-compact.py", "pre-compact");
    const fromPython = state();
    assert.equal(fromNode.active_project_id, ACTIVE_PROJECT);
    assert.deepEqual([fromPython.active_project_id, fromPython.confidence], [
      fromNode.active_project_id,
      fromNode.confidence,
    ]);
  });

  test("the Node and Python UserPromptSubmit peers report the same fill", { skip: !python && "no python3" }, () => {
    const a =
      JSON.parse(runPeer("node", "user-prompt-submit.mjs", "user-prompt-submit")).hookSpecificOutput.additionalContext;
    const b = JSON.parse(runPeer("python3", "user-prompt-submit.py", "user-prompt-submit")).hookSpecificOutput
      .additionalContext;
    assert.equal(a, b);
    assert.match(a, /FILL: 72\.0% \(144003 of 200000 tokens\)/);
  });

  test(
    "the Node and Python SessionStart peers inject the same resume context",
    { skip: !python && "no python3" },
    () => {
      runPeer("node", "pre-compact.mjs", "pre-compact");
      const a = JSON.parse(
        JSON.parse(runPeer("node", "session-start.mjs", "session-start")).hookSpecificOutput.additionalContext,
      );
      runPeer("node", "pre-compact.mjs", "pre-compact");
      const b = JSON.parse(
        JSON.parse(runPeer("python3", "session-start.py", "session-start")).hookSpecificOutput.additionalContext,
      );
      assert.deepEqual(a.resume_mode, b.resume_mode);
      assert.equal(a.resume_mode.project_id, ACTIVE_PROJECT);
      assert.equal(a.MANDATORY_LOADING_SEQUENCE, b.MANDATORY_LOADING_SEQUENCE);
    },
  );
});
