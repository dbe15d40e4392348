// Invisible and bidirectional control characters in transcript and repository text never reach
// the model raw (SECURITY.md, "Quoted text shows every character"), checked on the compiled
// binaries: a U+202E RIGHT-TO-LEFT OVERRIDE, a U+2066 LEFT-TO-RIGHT ISOLATE and a U+200B ZERO
// WIDTH SPACE in the user's typed request, in a TaskCreate subject, in the name of a file the
// session edited, in the path of the plan file it read, and in a test command it ran and that
// command's failure line come out as visible escapes, the rest of the text intact, wherever an
// output quotes them: PreCompact (the summarizer's instructions quote the command and its failure,
// the plan's path and the edited file), SessionStart(compact) (the `<session-context>` element:
// the request, the command and its failure, the plan), the first prompt after it (the
// `<session-context part="after-summary">` element: the open task the summary does not carry) and
// the re-read reminder (the file and the task).
//
// REHYDRATE_TEST_DIST runs the same scenario against another build: a build of the tree without
// the escaping (lib/xml escapers, lib/redact/quote_line.ts, lib/hook/handle_hook.ts) fails every test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, FIXTURES, run } from "./_bin.ts";

const SESSION = "3b9f0c1e-6d2a-4e8b-9c7f-1a2b3c4d5e6f";
/** The code points under test, and a few more of the same kind. */
const INVISIBLE = ["\u202E", "\u2066", "\u200B", "\u2069", "\u202C", "\u200F", "\u200D", "\uFEFF"];
const REQUEST = "please rename the \u202Etxt.exe\u202C invoice file, \u2066keep\u2069 the tests, no\u200Bspace";
const SUBJECT = "Audit the \u202Egnp.ts\u202C loader \u2066step\u2069 one\u200Btwo";
const FILE = "src/report\u202Egnp\u202C\u2066x\u2069\u200B.ts";
const PLAN = "docs/\u202Eledger\u202C-\u2066plan\u2069\u200B.md";
const COMMAND = "npx vitest run src/\u202Eledger\u202C.test.ts --reporter \u2066dot\u2069 --bail\u200B1";
const FAILURE = "AssertionError: \u202Eexpected\u202C 0.3, \u2066got\u2069 0.30000000000000004 in ledger\u200Btotals";

/** The texts under test, by what they are. */
const TEXTS = { request: REQUEST, subject: SUBJECT, file: FILE, plan: PLAN, command: COMMAND, failure: FAILURE };

/** A repository with the edited file, a transcript of the session, and a way to call a hook. */
function session(): {
  call(hook: string, file: string, patch?: Record<string, unknown>): string;
  /** Appends what Claude Code writes after SessionStart(compact): the boundary and its summary. */
  summarize(): void;
} {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-invisible-"));
  const project = join(tmp, "repo");
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, FILE), "export const report = 1;\n");
  mkdirSync(join(project, "docs"));
  writeFileSync(join(project, PLAN), "# Plan\n");
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
    summarize() {
      const rows = [
        { type: "system", subtype: "compact_boundary", uuid: "b1", parentUuid: null, isSidechain: false },
        {
          type: "user",
          uuid: "s1",
          parentUuid: "b1",
          isSidechain: false,
          isCompactSummary: true,
          message: { role: "user", content: "This session is being continued from a previous conversation." },
        },
      ];
      appendFileSync(transcript, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    },
  };
}

/**
 * The session as Claude Code writes it: the typed request, a TaskCreate, a Read of the plan, a
 * Write of the file, a test run that failed.
 */
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
  const result = (id: string, content: string, detail: unknown, isError = false) =>
    row("user", { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] }, {
      toolUseResult: detail,
    });
  const path = join(project, FILE);
  return [
    row("user", { role: "user", content: REQUEST }),
    call("toolu_task", "TaskCreate", { subject: SUBJECT, description: "the loader", activeForm: SUBJECT }),
    result("toolu_task", `Task #1 created successfully: ${SUBJECT}`, { task: { id: "1", subject: SUBJECT } }),
    call("toolu_plan", "Read", { file_path: join(project, PLAN) }),
    result("toolu_plan", "     1\t# Plan", { type: "text", file: { filePath: join(project, PLAN) } }),
    call("toolu_write", "Write", { file_path: path, content: "export const report = 1;\n" }),
    result("toolu_write", `File created successfully at: ${path}`, { type: "create", filePath: path }),
    call("toolu_test", "Bash", { command: COMMAND, description: "Run the ledger tests" }),
    result(
      "toolu_test",
      `Exit code 1\n ❯ src/ledger.test.ts (1 test | 1 failed)\n${FAILURE}\n`,
      "Error: Exit code 1",
      true,
    ),
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

/**
 * Fails unless `text` holds, for each of the texts named, every run of visible characters between
 * its invisible ones (those of three characters or more): the words around them are intact.
 */
function assertWords(text: string, what: string, texts: (keyof typeof TEXTS)[]): void {
  const invisible = new RegExp(`[${INVISIBLE.join("")}]`);
  for (const t of texts) {
    for (const word of TEXTS[t].split(invisible).filter((w) => w.trim().length >= 3)) {
      assert.ok(text.includes(word), `${what}: ${JSON.stringify(word)} of the ${t} is kept: ${text}`);
    }
  }
}

test("PreCompact: the summarizer's instructions show the invisible characters as escapes, the words intact", () => {
  const s = session();
  const out = s.call("pre-compact", "PreCompact-manual.json");
  assert.notEqual(out, "", "the everyday layer has instructions");
  assertNoneRaw(out, "PreCompact's stdout");
  assertWords(out, "PreCompact", ["command", "failure", "plan", "file"]);
  assert.ok(
    out.includes("src/\\u202Eledger\\u202C.test.ts --reporter \\u2066dot\\u2069 --bail\\u200B1"),
    `the command: ${out}`,
  );
  assert.ok(out.includes("\\u2066got\\u2069 0.30000000000000004 in ledger\\u200Btotals"), `its failure line: ${out}`);
  assert.ok(out.includes("docs/\\u202Eledger\\u202C-\\u2066plan\\u2069\\u200B.md"), `the plan: ${out}`);
  // Each quotation is still a JSON string that decodes to the text the session wrote.
  const quoted = [...out.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((m) => JSON.parse(m[0]) as string);
  for (const text of [COMMAND, FAILURE, PLAN, FILE]) {
    assert.ok(quoted.includes(text), `${JSON.stringify(text)} decodes to what the session wrote: ${out}`);
  }
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
  assertWords(context, "SessionStart", ["request", "command", "failure", "plan"]);
  assert.ok(context.includes("rename the &#x202E;txt.exe&#x202C; invoice"), `the request: ${context}`);
  assert.ok(
    context.includes("src/&#x202E;ledger&#x202C;.test.ts --reporter &#x2066;dot&#x2069; --bail&#x200B;1</command>"),
    `the command: ${context}`,
  );
  assert.ok(
    context.includes(
      'failure="AssertionError: &#x202E;expected&#x202C; 0.3, &#x2066;got&#x2069; 0.30000000000000004 in ledger&#x200B;totals"',
    ),
    `its failure line: ${context}`,
  );
  assert.ok(
    context.includes('path="docs/&#x202E;ledger&#x202C;-&#x2066;plan&#x2069;&#x200B;.md"'),
    `the plan: ${context}`,
  );
});

test("the first prompt after it: the after-summary part writes the open task as character references", () => {
  const s = session();
  s.call("pre-compact", "PreCompact-manual.json");
  s.call("session-start", "SessionStart-compact.json");
  s.summarize();
  const stdout = s.call("user-prompt-submit", "UserPromptSubmit.json");
  assert.notEqual(stdout, "", "the summary does not carry the task: the prompt gives it");
  assertNoneRaw(stdout, "UserPromptSubmit's stdout");
  const context: string = JSON.parse(stdout).hookSpecificOutput.additionalContext;
  assertNoneRaw(context, "the additionalContext Claude Code injects");
  assert.match(context, /<session-context source="rehydrate" part="after-summary"/);
  assertWords(context, "the follow-up", ["subject"]);
  assert.ok(context.includes("Audit the &#x202E;gnp.ts&#x202C; loader &#x2066;step&#x2069; one&#x200B;two"), context);
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
