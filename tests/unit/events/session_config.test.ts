// The `session` config section: `enabled: false` turns the everyday layer's own output off in every
// hook (no snapshot, no summarizer lines, no <session-context>), and `userRequests` sets how many
// of the user's typed requests are kept. A project's own config may set both.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import { preCompactHook } from "../../../lib/events/pre_compact_hook.ts";
import { sessionStartHook } from "../../../lib/events/session_start.ts";
import { userPromptSubmitHook } from "../../../lib/events/user_prompt_submit.ts";
import { payload } from "../_reread_harness.ts";

const FIX = join(import.meta.dirname!, "..", "..", "fixtures");
const SID = "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf";

/** A project whose own .claude/rehydrate.json holds `config`, and the everyday fixture transcript. */
function world(config: unknown) {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-session-config-"));
  const project = join(root, "project");
  const state = join(root, "state");
  mkdirSync(join(root, "home"), { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
  if (config !== undefined) writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify(config));
  const transcript = join(root, `${SID}.jsonl`);
  copyFileSync(join(FIX, "session", "everyday.jsonl"), transcript);
  const env = { REHYDRATE_STATE_DIR: state, HOME: join(root, "home"), CLAUDE_PROJECT_DIR: project };
  const patch = { session_id: SID, transcript_path: transcript, cwd: project };
  return {
    snapshots: () => existsSync(join(state, "sessions")) ? readdirSync(join(state, "sessions")) : [],
    snapshot: () => {
      const name = readdirSync(join(state, "sessions")).find((n) => n.endsWith(".snapshot.json"))!;
      return JSON.parse(readFileSync(join(state, "sessions", name), "utf8"));
    },
    preCompact: () => handleHook("PreCompact", preCompactHook, payload("PreCompact-auto.json", patch), { env }),
    sessionStart: () =>
      handleHook("SessionStart", sessionStartHook, payload("SessionStart-compact.json", patch), { env }),
    prompt: () =>
      handleHook("UserPromptSubmit", userPromptSubmitHook, payload("UserPromptSubmit.json", patch), { env }),
  };
}

describe("session.enabled", () => {
  test("by default PreCompact saves a snapshot and prints the everyday lines (the control)", async () => {
    const w = world(undefined);
    const out = await w.preCompact();
    assert.match(out.stdout, /^rehydrate, to the summarizer of this conversation/);
    // The transcript's directory is not the project's: each edited file is still named once.
    const files = out.stdout.split("\n").find((l) => l.startsWith("- The names of the files edited"))!;
    assert.deepEqual([...files.matchAll(/"([^"]*)"/g)].map((m) => m[1]), [
      "/home/dev/work/demo-proj/docs/json-output.md",
      "/home/dev/work/demo-proj/src/report.ts",
      "/home/dev/work/demo-proj/src/legacy/format.ts",
    ]);
    assert.ok(w.snapshots().some((n) => n.endsWith(".snapshot.json")));
  });

  test("false: PreCompact saves no snapshot and prints no everyday lines", async () => {
    const w = world({ session: { enabled: false } });
    const out = await w.preCompact();
    assert.equal(out.stdout, "");
    assert.deepEqual(w.snapshots().filter((n) => n.endsWith(".snapshot.json")), []);
  });

  test("false: SessionStart(compact) injects no <session-context>", async () => {
    const on = world(undefined);
    await on.preCompact();
    assert.match((await on.sessionStart()).stdout, /<session-context/);
    const w = world({ session: { enabled: false } });
    await w.preCompact();
    const out = await w.sessionStart();
    assert.doesNotMatch(out.stdout, /session-context/);
    assert.deepEqual(w.snapshots().filter((n) => n.endsWith(".snapshot.json")), [], "nor rebuilds one");
  });

  test("false: UserPromptSubmit's re-delivery injects no <session-context>", async () => {
    const on = world(undefined);
    await on.preCompact();
    assert.match((await on.prompt()).stdout, /<session-context/);
    const w = world({ session: { enabled: false } });
    await w.preCompact();
    const out = await w.prompt();
    assert.doesNotMatch(out.stdout, /session-context/);
  });
});

describe("session.userRequests", () => {
  test("sets how many typed requests PreCompact's snapshot keeps, and SessionStart renders", async () => {
    const one = world({ session: { userRequests: 1 } });
    await one.preCompact();
    assert.equal(one.snapshot().user_requests.length, 1);
    const element = JSON.parse((await one.sessionStart()).stdout).hookSpecificOutput.additionalContext as string;
    assert.equal(element.match(/<request[ >]/g)?.length, 1);

    // The fixture holds 4 typed requests: the most (10) keeps all of them, one more than the default.
    const ten = world({ session: { userRequests: 10 } });
    await ten.preCompact();
    assert.equal(ten.snapshot().user_requests.length, 4);

    const byDefault = world(undefined);
    await byDefault.preCompact();
    assert.equal(byDefault.snapshot().user_requests.length, 3);
  });

  test("0 keeps none", async () => {
    const w = world({ session: { userRequests: 0 } });
    await w.preCompact();
    assert.deepEqual(w.snapshot().user_requests, []);
    const out = await w.sessionStart();
    assert.doesNotMatch(out.stdout, /<user-requests/);
  });

  test("a rebuild at SessionStart keeps the configured number too", async () => {
    const w = world({ session: { userRequests: 2 } });
    // No PreCompact ran: SessionStart rebuilds the snapshot from the transcript.
    const element = JSON.parse((await w.sessionStart()).stdout).hookSpecificOutput.additionalContext as string;
    // The element gives the latest; the summary carries the others, and the follow-up what it lacks.
    assert.equal(element.match(/<request[ >]/g)?.length, 1);
    assert.equal(w.snapshot().user_requests.length, 2);
  });
});

describe("session.restoreMessage", () => {
  test("by default SessionStart(compact) shows the user one line on what came back, and records the delivery", async () => {
    const w = world(undefined);
    await w.preCompact();
    const reply = JSON.parse((await w.sessionStart()).stdout);
    assert.match(reply.systemMessage, /^rehydrate: restored your latest request/);
    assert.ok(!reply.systemMessage.includes("\n"));
    assert.ok(!reply.hookSpecificOutput.additionalContext.includes(reply.systemMessage), "the model does not get it");
  });

  test("false: no line for the user; the model gets the same context", async () => {
    const on = world(undefined);
    await on.preCompact();
    const withLine = JSON.parse((await on.sessionStart()).stdout);
    const w = world({ session: { restoreMessage: false } });
    await w.preCompact();
    const reply = JSON.parse((await w.sessionStart()).stdout);
    assert.equal(reply.systemMessage, undefined);
    assert.equal(
      reply.hookSpecificOutput.additionalContext.replace(/ (mark|saved-at)="[^"]+"/g, ""),
      withLine.hookSpecificOutput.additionalContext.replace(/ (mark|saved-at)="[^"]+"/g, ""),
    );
  });

  test("a re-delivery by the next prompt shows the line too", async () => {
    const w = world(undefined);
    await w.preCompact();
    const reply = JSON.parse((await w.prompt()).stdout);
    assert.match(reply.systemMessage, /^rehydrate: restored /);
    assert.doesNotMatch(reply.systemMessage, /next prompt/);
  });
});
