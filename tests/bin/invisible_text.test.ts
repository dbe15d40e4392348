// Invisible and bidirectional control characters in transcript and repository text never reach
// the model raw (SECURITY.md, "Quoted text shows every character"), checked on the compiled
// binaries: a U+202E RIGHT-TO-LEFT OVERRIDE, a U+2066 LEFT-TO-RIGHT ISOLATE and a U+200B ZERO
// WIDTH SPACE in the user's typed request, in a TaskCreate subject and in the name of a file the
// session edited come out of PreCompact (the summarizer's instructions), SessionStart(compact)
// (the `<session-context>` element) and the re-read reminder as visible escapes, the rest of the
// text intact.
//
// REHYDRATE_TEST_DIST runs the same scenario against another build: a build of the tree without
// the escaping (lib/xml escapers, lib/redact/quote_line.ts, lib/hook/handle_hook.ts) fails every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, FIXTURES, run } from "./_bin.ts";

const SESSION = "3b9f0c1e-6d2a-4e8b-9c7f-1a2b3c4d5e6f";
/** The code points under test, and a few more of the same kind. */
const INVISIBLE = ["\u202E", "\u2066", "\u200B", "\u2069", "\u202C", "\u200F", "\u200D", "\uFEFF"];
const REQUEST = "please rename the \u202Etxt.exe\u202C invoice file, \u2066keep\u2069 the tests, no\u200Bspace";
const SUBJECT = "Audit the \u202Egnp.ts\u202C loader \u2066step\u2069 one\u200Btwo";
const FILE = "src/report\u202Egnp\u202C\u2066x\u2069\u200B.ts";

/** The visible words that must still be there, around each invisible character. */
const VISIBLE = [
  "please rename the",
  "txt.exe",
  "invoice file",
  "keep",
  "the tests",
  "Audit the",
  "loader",
  "src/report",
];

/** A repository with the edited file, a transcript of the session, and a way to call a hook. */
function session(): { call(hook: string, file: string, patch?: Record<string, unknown>): string } {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-invisible-"));
  const project = join(tmp, "repo");
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, FILE), "export const report = 1;\n");
  // Re-read enforcement in every session, so the reminder is sent (the default is dispatch sessions only).
  mkdirSync(join(project, ".claude"));
  writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify({ reread: { enforce: true } }));
  const home = join(tmp, "home");
  mkdirSync(home);
  const transcript = join(tmp, `${SESSION}.jsonl`);
  writeFileSync(transcript, transcriptRows(project).map((r) => JSON.stringify(r)).join("\n") + "\n");
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    REHYDRATE_STATE_DIR: join(tmp, "state"),
  };
  return {
    call(hook, file, patch = {}) {
      const input = {
        ...JSON.parse(readFileSync(join(FIXTURES, "hook-inputs", file), "utf8")),
        session_id: SESSION,
        transcript_path: transcript,
        cwd: project,
        ...patch,
      };
      const r = run(bin(hook), [], { stdin: JSON.stringify(input), env, cwd: project });
      assert.equal(r.status, 0, `${hook}: exit ${r.status} ${r.stderr}`);
      return r.stdout;
    },
  };
}

/** The session as Claude Code writes it: the typed request, a TaskCreate, a Write of the file. */
function transcriptRows(project: string): Record<string, unknown>[] {
  let n = 0;
  const row = (type: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    n++;
    return {
      parentUuid: null,
      isSidechain: false,
      userType: "external",
      cwd: project,
      sessionId: SESSION,
      version: "2.1.332",
      type,
      uuid: `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`,
      timestamp: new Date(Date.UTC(2026, 10, 25, 9, 0, n)).toISOString(),
      message,
      ...extra,
    };
  };
  const call = (id: string, name: string, input: Record<string, unknown>) =>
    row("assistant", { role: "assistant", id: `msg_${id}`, content: [{ type: "tool_use", id, name, input }] });
  const result = (id: string, content: string, detail: unknown) =>
    row("user", { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] }, {
      toolUseResult: detail,
    });
  const path = join(project, FILE);
  return [
    row("user", { role: "user", content: REQUEST }),
    call("toolu_task", "TaskCreate", { subject: SUBJECT, description: "the loader", activeForm: SUBJECT }),
    result("toolu_task", `Task #1 created successfully: ${SUBJECT}`, { task: { id: "1", subject: SUBJECT } }),
    call("toolu_write", "Write", { file_path: path, content: "export const report = 1;\n" }),
    result("toolu_write", `File created successfully at: ${path}`, { type: "create", filePath: path }),
  ];
}

/** Fails when `text` holds one of the invisible characters raw. */
function assertNoneRaw(text: string, what: string): void {
  for (const ch of INVISIBLE) {
    const at = text.indexOf(ch);
    assert.equal(
      at,
      -1,
      `${what} holds U+${ch.codePointAt(0)!.toString(16).toUpperCase()} raw: ${
        JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))
      }`,
    );
  }
}

test("PreCompact: the summarizer's instructions show the invisible characters as escapes, the words intact", () => {
  const s = session();
  const out = s.call("pre-compact", "PreCompact-manual.json");
  assert.notEqual(out, "", "the everyday layer has instructions");
  assertNoneRaw(out, "PreCompact's stdout");
  for (const word of VISIBLE) assert.ok(out.includes(word), `${JSON.stringify(word)} is kept: ${out}`);
  assert.ok(out.includes("\\u202Etxt.exe\\u202C invoice"), `the override is a visible escape: ${out}`);
  assert.ok(out.includes("\\u2066step\\u2069 one\\u200Btwo"), `the isolates and the zero-width space too: ${out}`);
  // Each quotation is still a JSON string that decodes to the text the user typed.
  const quoted = [...out.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((m) => JSON.parse(m[0]) as string);
  assert.ok(quoted.includes(REQUEST), `the request decodes to what was typed: ${out}`);
});

test("SessionStart(compact): the <session-context> element writes them as character references, the words intact", () => {
  const s = session();
  s.call("pre-compact", "PreCompact-manual.json");
  const stdout = s.call("session-start", "SessionStart-compact.json");
  assert.notEqual(stdout, "", "SessionStart injects the session context");
  assertNoneRaw(stdout, "SessionStart's stdout");
  const context: string = JSON.parse(stdout).hookSpecificOutput.additionalContext;
  assertNoneRaw(context, "the additionalContext Claude Code injects");
  assert.match(context, /<session-context /);
  for (const word of VISIBLE) assert.ok(context.includes(word), `${JSON.stringify(word)} is kept: ${context}`);
  assert.ok(context.includes("rename the &#x202E;txt.exe&#x202C; invoice"), `the request: ${context}`);
  assert.ok(context.includes("Audit the &#x202E;gnp.ts&#x202C; loader &#x2066;step&#x2069; one&#x200B;two"), context);
  assert.ok(context.includes("src/report&#x202E;gnp&#x202C;&#x2066;x&#x2069;&#x200B;.ts"), `the file: ${context}`);
});

// The reminder is an imperative of ours (issue #36, N4): a file whose name holds such characters
// is not named in it, and the task stays in <session-context>, where it is quoted with escapes.
test("PreToolUse after the compaction: the re-read reminder holds no invisible character, the file unnamed and the task left out", () => {
  const s = session();
  s.call("pre-compact", "PreCompact-manual.json");
  s.call("session-start", "SessionStart-compact.json");
  const stdout = s.call("pre-tool-use", "PreToolUse-Bash.json");
  assert.notEqual(stdout, "", "the first tool call after the compaction is denied once");
  assertNoneRaw(stdout, "PreToolUse's stdout");
  const reason: string = JSON.parse(stdout).hookSpecificOutput.permissionDecisionReason;
  assertNoneRaw(reason, "the deny reason");
  assert.ok(!reason.includes("src/report") && !reason.includes("Audit the"), reason);
  assert.ok(reason.includes("a file whose name is not shown here"), reason);
  assert.ok(reason.includes("<session-context>"), reason);
});

test("rehydrate detect: the CLI shows the invisible characters of a transcript's paths as escapes", () => {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-invisible-cli-"));
  const transcript = join(tmp, "t.jsonl");
  writeFileSync(transcript, transcriptRows(join(tmp, "repo")).map((r) => JSON.stringify(r)).join("\n") + "\n");
  for (const args of [["detect", "-t", transcript], ["detect", "--json", "-t", transcript]]) {
    const r = run(bin("rehydrate"), args, { cwd: tmp, env: { PATH: process.env.PATH, HOME: tmp } });
    assert.equal(r.status, 0, `${args.join(" ")}: ${r.stderr}`);
    assert.ok(r.stdout.includes("src/report"), `${args.join(" ")} names the file: ${r.stdout}`);
    assertNoneRaw(r.stdout, args.join(" "));
    assert.ok(r.stdout.includes("\\u202E"), `${args.join(" ")} shows the override as an escape`);
  }
});
