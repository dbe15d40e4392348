import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliStatus, type StatusReport } from "../../../lib/cli/status.ts";
import { sanitizeProjectPath } from "../../../lib/cli/_doctor_files.ts";
import { writeRestoreRecord } from "../../../lib/delivery/restore_record.ts";

const FIX = join(import.meta.dirname!, "..", "..", "fixtures");
const SESSION = "7da37d46-8061-4f75-801e-26383afad198";

function setup(): { home: string; project: string; state: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-status-test-"));
  const home = join(root, "home");
  const project = join(root, "project");
  const state = join(root, "state");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  return { home, project, state, env: { HOME: home, REHYDRATE_STATE_DIR: state } };
}

function status(s: ReturnType<typeof setup>, args: string[] = ["--json"]): { code: number; out: string; err: string } {
  let out = "";
  let err = "";
  const code = cliStatus(args, { out: (t) => void (out += t), err: (t) => void (err += t) }, {
    cwd: s.project,
    homeDir: s.home,
    env: s.env,
  });
  return { code, out, err };
}

function assistantRow(input: number, cacheRead: number): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: "assistant",
    uuid: "a1",
    sessionId: SESSION,
    timestamp: "2026-11-21T10:00:00.000Z",
    message: {
      model: "claude-opus-4-6",
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "ok" }],
      usage: {
        input_tokens: input,
        cache_read_input_tokens: cacheRead,
        cache_creation_input_tokens: 0,
        output_tokens: 5,
      },
    },
  }) + "\n";
}

describe("cliStatus()", () => {
  test("cliStatus() on an empty project reports no workflow, no detection, nothing pending and no session", () => {
    const s = setup();
    const r = status(s);
    assert.equal(r.code, 0);
    const report: StatusReport = JSON.parse(r.out);
    assert.deepEqual(report.workflows.map((w) => [w.workflow, w.used]), [
      ["projects", false],
      ["orchestration", false],
      ["dispatch", false],
    ]);
    assert.equal(report.lastDetection, null);
    assert.deepEqual(report.pendingCheckpoints, []);
    assert.deepEqual(report.pendingMarkers, []);
    assert.equal(report.latestSession, null);
    assert.equal(report.nextCompaction, null);
  });

  test("cliStatus() says rehydrate is off, and which config file turned it off", () => {
    const s = setup();
    assert.equal((JSON.parse(status(s).out) as StatusReport).enabled, true);
    mkdirSync(join(s.project, ".claude"));
    const file = join(s.project, ".claude", "rehydrate.json");
    writeFileSync(file, JSON.stringify({ enabled: false }));
    const report: StatusReport = JSON.parse(status(s).out);
    assert.equal(report.enabled, false);
    assert.equal(report.offBy, file);
    assert.match(
      status(s, []).out,
      new RegExp(`^rehydrate is off: "enabled": false in ${file.replace(/[.]/g, "\\.")};`, "m"),
    );
  });

  test("cliStatus() lists the project's last compactions and --last prints the exact text the model got", () => {
    const s = setup();
    assert.match(status(s, []).out, /^Last compactions: none of this project on record yet$/m);
    assert.match(status(s, ["--last"]).out, /^No compaction of .* on record yet/);
    assert.doesNotMatch(status(s, []).out, /Last detection/, "no project workspace: no detection to speak of");
    const text = '<session-context source="rehydrate">\n<request latest="true">go</request>\n</session-context>';
    const part = (by: "session-start" | "user-prompt-submit", t: string, summary: string) => ({
      by,
      at: "2026-11-25T15:55:20.000Z",
      chars: t.length,
      elements: [],
      summary,
      text: t,
    });
    const base = {
      schema_version: 1 as const,
      project_dir: s.project,
      session_id: SESSION,
      compacted_at: "2026-11-25T15:55:14.181Z",
      follow_up: null,
    };
    writeRestoreRecord(s.state, { ...base, compaction_id: "a1", trigger: "auto", delivered: null });
    writeRestoreRecord(s.state, {
      ...base,
      compaction_id: "a2",
      trigger: "manual",
      delivered: part("session-start", text, "your latest request"),
      follow_up: part("user-prompt-submit", "<gaps/>", "1 open task"),
    });
    const out = status(s, []).out;
    assert.match(out, /^Last compactions \(newest first; rehydrate status --last prints what the model got\):$/m);
    assert.match(
      out,
      /^ {2}2026-11-25 15:55:14 UTC manual: \d+ characters by SessionStart: your latest request; then 7 characters at the next prompt: 1 open task$/m,
    );
    assert.match(out, /^ {2}2026-11-25 15:55:14 UTC auto: not delivered$/m);
    assert.equal(status(s, ["--last"]).out, `${text}\n\n<gaps/>\n`);
    const report: StatusReport = JSON.parse(status(s).out);
    assert.deepEqual(report.compactions.map((c) => [c.compactionId, c.delivered?.chars ?? null]), [
      ["a2", text.length],
      ["a1", null],
    ]);
    assert.ok(!("text" in (report.compactions[0].delivered ?? {})), "the texts stay out of the listing");
  });

  test("cliStatus() reports the last detection, unacknowledged checkpoints and waiting re-read markers", () => {
    const s = setup();
    mkdirSync(join(s.project, "00-system", ".cache"), { recursive: true });
    mkdirSync(join(s.project, "02-projects"), { recursive: true });
    copyFileSync(
      join(FIX, "workspace", "states", "precompact-valid.json"),
      join(s.project, "00-system", ".cache", "precompact_state.json"),
    );
    mkdirSync(join(s.project, "projects", "PROJ-001"), { recursive: true });
    writeFileSync(join(s.project, "projects", "PROJ-001", "ORCHESTRATION.yaml"), "workflow:\n  id: w\n");
    const cps = join(s.project, ".jerry", "checkpoints");
    mkdirSync(cps, { recursive: true });
    copyFileSync(
      join(FIX, "schemas", "valid", "checkpoint.v1", "design-note-003.json"),
      join(cps, "cx-001-checkpoint.json"),
    );
    copyFileSync(
      join(FIX, "schemas", "valid", "checkpoint.v1", "nothing-known.json"),
      join(cps, "cx-002-checkpoint.json"),
    );
    mkdirSync(join(s.state, "markers"), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(s.state, "markers", `${SESSION}.json`),
      JSON.stringify({ session_id: SESSION, created_at: "2026-11-21T10:00:00Z", files: ["a.md", "b.md"] }),
    );
    // Another project's session waits for its re-read too: not this project's to show (issue #36, I5).
    const other = "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
    writeFileSync(
      join(s.state, "markers", `${other}.json`),
      JSON.stringify({ session_id: other, created_at: "2026-11-21T10:00:00Z", files: ["/elsewhere/x.md"] }),
    );
    const transcripts = join(s.home, ".claude", "projects", sanitizeProjectPath(s.project));
    mkdirSync(transcripts, { recursive: true });
    writeFileSync(join(transcripts, `${SESSION}.jsonl`), "");
    const elsewhere = join(s.home, ".claude", "projects", sanitizeProjectPath(join(s.project, "..", "other")));
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, `${other}.jsonl`), "");
    const report: StatusReport = JSON.parse(status(s).out);
    assert.deepEqual(report.workflows.filter((w) => w.used).map((w) => w.workflow), ["projects", "orchestration"]);
    assert.deepEqual(
      { ...report.lastDetection, file: undefined },
      {
        file: undefined,
        activeProjectId: "01-website-redesign",
        confidence: "high",
        method: "transcript",
        timestamp: "2026-11-21T09:59:00.000Z",
      },
    );
    assert.deepEqual(report.pendingCheckpoints.map((c) => c.id), ["cx-001"]);
    assert.deepEqual(report.pendingMarkers.map((m) => [m.sessionId, m.files]), [[SESSION, 2]]);
    const text = status(s, []).out;
    assert.match(text, /^Last detection: 01-website-redesign \(confidence high, by transcript, /m);
    assert.match(text, /^Pending checkpoints: cx-001 \(2026-02-19T10:00:00Z\); rehydrate ack acknowledges them$/m);
  });

  test("cliStatus() measures the newest session's context fill with the model its session record holds", () => {
    const s = setup();
    const dir = join(s.home, ".claude", "projects", sanitizeProjectPath(s.project));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${SESSION}.jsonl`), assistantRow(1000, 49_000));
    let report: StatusReport = JSON.parse(status(s).out);
    assert.deepEqual(
      { ...report.latestSession, transcript: undefined },
      {
        transcript: undefined,
        sessionId: SESSION,
        model: "claude-opus-4-6",
        tokens: 50_000,
        window: 200_000,
        percent: 25,
        source: "usage",
      },
    );
    mkdirSync(join(s.state, "sessions"), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(s.state, "sessions", `${SESSION}.json`),
      JSON.stringify({ session_id: SESSION, model: "claude-opus-4-6[1m]" }),
    );
    report = JSON.parse(status(s).out);
    assert.equal(report.latestSession?.model, "claude-opus-4-6[1m]");
    assert.equal(report.latestSession?.window, 1_000_000);
    assert.equal(report.latestSession?.percent, 5);
    assert.match(
      status(s, []).out,
      new RegExp(`^Latest session: ${SESSION}: 50000 of 1000000 tokens \\(5%\\), model claude-opus-4-6\\[1m\\]$`, "m"),
    );
  });

  test("cliStatus() shows the <session-context> the next compaction would inject and writes no state", () => {
    const s = setup();
    const dir = join(s.home, ".claude", "projects", sanitizeProjectPath(s.project));
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(FIX, "session", "everyday.jsonl"), join(dir, `${SESSION}.jsonl`));
    const report: StatusReport = JSON.parse(status(s).out);
    const next = report.nextCompaction!;
    assert.match(next.element, /^<session-context source="rehydrate"/);
    assert.match(next.element, /<\/session-context>$/);
    assert.equal(next.rebuilt, true);
    assert.equal(next.maxChars, 9500);
    assert.ok(next.openTasks > 0 && next.userRequests > 0 && next.editedFiles > 0);
    assert.equal(next.commands, 1);
    assert.equal(next.planFile, null);
    assert.ok(next.element.length <= next.maxChars);

    const text = status(s, []).out;
    const line = new RegExp(
      `^After the next compaction: <session-context> of ${next.element.length} characters \\(the latest request, ` +
        `1 command; built now from the transcript\\), then at the first prompt what the summary lacks of ` +
        `${next.openTasks} open tasks?, ${
          next.userRequests - 1
        } earlier requests? and ${next.editedFiles} edited files?`,
      "m",
    );
    assert.match(text, line);
    assert.match(text, /; --verbose prints it$/m);
    assert.ok(!text.includes("<session-context source"), "the element only with --verbose");
    const verbose = status(s, ["--verbose"]).out;
    // Built now each time: only its saved-at differs from the --json run's.
    const strip = (t: string) => t.replace(/saved-at="[^"]*"/, "");
    assert.ok(strip(verbose).includes(` edited files:\n${strip(next.element)}\n`), verbose);
    assert.equal(
      existsSync(s.state) ? readdirSync(s.state, { recursive: true }).length : 0,
      0,
      "status writes no state",
    );
  });

  test("cliStatus() says the everyday layer is off when session.enabled is false, and keeps session.userRequests", () => {
    const s = setup();
    const dir = join(s.home, ".claude", "projects", sanitizeProjectPath(s.project));
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(FIX, "session", "everyday.jsonl"), join(dir, `${SESSION}.jsonl`));
    mkdirSync(join(s.project, ".claude"), { recursive: true });
    const config = join(s.project, ".claude", "rehydrate.json");
    writeFileSync(config, JSON.stringify({ session: { userRequests: 1 } }));
    let report: StatusReport = JSON.parse(status(s).out);
    assert.equal(report.sessionLayer, true);
    assert.equal(report.nextCompaction?.userRequests, 1);

    writeFileSync(config, JSON.stringify({ session: { enabled: false } }));
    report = JSON.parse(status(s).out);
    assert.equal(report.sessionLayer, false);
    assert.equal(report.nextCompaction, null);
    assert.ok(report.latestSession !== null, "the session itself is still reported");
    const text = status(s, ["--verbose"]).out;
    assert.match(
      text,
      /^After the next compaction: no <session-context>, the everyday layer is off \(session\.enabled: false\)$/m,
    );
    assert.ok(!text.includes("<session-context source"));
  });

  test("cliStatus() says when the session has nothing for the next compaction", () => {
    const s = setup();
    const dir = join(s.home, ".claude", "projects", sanitizeProjectPath(s.project));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${SESSION}.jsonl`), assistantRow(1000, 0));
    assert.equal((JSON.parse(status(s).out) as StatusReport).nextCompaction?.element, "");
    assert.match(status(s, ["--verbose"]).out, /^After the next compaction: no <session-context>, /m);
  });

  test("cliStatus() says where the hooks are registered: the local, shared and user settings files", () => {
    const s = setup();
    const none = JSON.parse(status(s).out) as StatusReport;
    assert.deepEqual(none.installed.map((i) => [i.scope, i.hooks.length, i.error]), [
      ["local", 0, null],
      ["shared", 0, null],
      ["user", 0, null],
    ]);
    assert.match(
      status(s, []).out,
      /^Hooks: not registered in .*settings\.local\.json, .*settings\.json, .*settings\.json; rehydrate install registers them$/m,
    );
    mkdirSync(join(s.project, ".claude"), { recursive: true });
    const entry = (command: string) => [{ hooks: [{ type: "command", command, timeout: 10 }] }];
    writeFileSync(
      join(s.project, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { Stop: entry("command -v rehydrate >/dev/null 2>&1 || exit 0; exec rehydrate stop") },
      }),
    );
    writeFileSync(join(s.project, ".claude", "settings.local.json"), "{ not json");
    const both = JSON.parse(status(s).out) as StatusReport;
    assert.deepEqual(both.installed[1].hooks, ["Stop:stop"]);
    assert.match(both.installed[0].error ?? "", /^1:3: /);
    assert.match(
      status(s, []).out,
      /^Hooks: .*settings\.local\.json \(local\): 1:3: .*; .*settings\.json \(shared\): Stop:stop$/m,
    );
  });

  test("cliStatus() answers --help with examples, refuses a missing project with one line and exit 1, a bad option with exit 2", () => {
    const s = setup();
    const help = status(s, ["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.out, /Examples:\n {2}rehydrate status/);
    const bad = status(s, ["--project", join(s.project, "nope")]);
    assert.equal(bad.code, 1);
    assert.equal(bad.err, `rehydrate status: no directory ${join(s.project, "nope")}; pass --project DIR\n`);
    const usage = status(s, ["--json", "extra"]);
    assert.equal(usage.code, 2);
    assert.equal(usage.err, `rehydrate status: unexpected argument "extra"\nTry 'rehydrate status --help'.\n`);
  });
});
