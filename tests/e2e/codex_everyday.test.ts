// The everyday scenario under the real OpenAI Codex CLI (the pinned @openai/codex), against the
// Responses-API mock: rehydrate installed by its own installer for Codex (the project's
// .codex/hooks.json and the trust in config.toml: no run bypasses Codex's hook trust). The agent
// reads src/format.js, plans with update_plan, patches src/format.js and runs the tests, which
// fail; the user asks for the regression test, the agent adds a file; then `/compact` in the
// interactive client (tmux: `codex exec` sends "/compact" to the model as a prompt) and one more
// prompt. We check what reached the model: the first request after the compaction holds
// SessionStart's <session-context> once, with the latest request and the failing test command,
// and beside it, once, what the mock's summary lacks (the open plan step, the edited files); a
// later turn does not get it again. Then an automatic compaction inside a turn (`codex exec
// resume` with a reply past model_auto_compact_token_limit) delivers the context once more.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type LoggedRequest, ourElements, ROOT, tmuxAvailable } from "./harness.ts";
import { CodexE2e, isCodexTurn } from "./codex_harness.ts";

const FIRST = "The totals are off by a cent sometimes. Find out why.";
const LATEST = "Now write the regression test for 0.1 + 0.2";
const STEP = "Fix rounding: sum integer cents in src/format.js";
const NEXT = "Keep going with the cents fix";
const tmux = tmuxAvailable();

/** Our <session-context> elements in a request, SessionStart's and the gaps' told apart. */
function split(request: LoggedRequest | null): { start: string[]; gaps: string[] } {
  const ours = request === null ? [] : ourElements(request).filter((x) => x.startsWith("<session-context"));
  return {
    start: ours.filter((x) => !x.includes('part="after-summary"')),
    gaps: ours.filter((x) => x.includes('part="after-summary"')),
  };
}

describe("an ordinary repository under the real Codex CLI", { skip: !tmux && "tmux is not installed" }, () => {
  let e: CodexE2e;
  let repo: string;
  let sessionId = "";
  let reviewShown = false;
  let afterCompact: LoggedRequest | null = null;
  let later: LoggedRequest | null = null;
  let afterAuto: LoggedRequest | null = null;
  let afterUninstall: LoggedRequest | null = null;
  let uninstalled = { status: -1 as number | null, config: "", logBefore: "", logAfter: "" };

  before(async () => {
    e = await CodexE2e.startCodex("codex-everyday");
    repo = e.workspace(join(ROOT, "examples", "everyday"));
    const first = await e.exec(
      repo,
      e.script(FIRST, [
        { call: "exec_command", arguments: { cmd: "sed -n '1,20p' src/format.js" } },
        {
          call: "update_plan",
          arguments: {
            plan: [
              { step: STEP, status: "in_progress" },
              { step: "Add a regression test for 0.1 + 0.2", status: "pending" },
            ],
          },
        },
        {
          patch:
            "*** Begin Patch\n*** Update File: src/format.js\n@@\n-  for (const price of prices) total += price;\n" +
            "+  for (const price of prices) total += Math.round(price * 100);\n*** End Patch\n",
        },
        { call: "exec_command", arguments: { cmd: "npm test" } },
        { text: "format.js now sums integer cents; the test still expects euros." },
      ]),
    );
    sessionId = first.sessionId;
    await e.exec(
      repo,
      e.script(LATEST, [
        {
          patch: '*** Begin Patch\n*** Add File: test/cents.test.js\n+import { test } from "node:test";\n' +
            '+test("0.1 + 0.2", () => {});\n*** End Patch\n',
        },
        { text: "Added test/cents.test.js." },
      ]),
      { resume: sessionId },
    );

    // /compact needs the interactive client.
    await e.tmuxStart(repo, { args: ["resume", sessionId, "-s", "workspace-write", "-a", "never"] });
    reviewShown = e.tmuxScreen().includes("Hooks need review");
    const rollout = e.rollout(sessionId);
    e.tmuxType("/compact");
    await e.waitFor(() => e.rolloutRows(rollout, "compacted").length >= 1, "the manual compaction", 60_000);
    await e.tmuxSettle("the screen after /compact");
    const mark = e.requests().length;
    e.tmuxType(NEXT);
    await e.waitFor(
      () =>
        e.requests().slice(mark).some((r) => isCodexTurn(r)) &&
        e.rolloutRows(rollout, "event_msg", "task_complete").length >= 3,
      "the turn after /compact",
      60_000,
    );
    afterCompact = e.firstTurnAfterCompaction();
    await e.tmuxSettle("the screen after the turn");
    await e.tmuxQuit();

    const next = await e.exec(repo, "Is the fix done?", { resume: sessionId });
    later = next.requests.filter(isCodexTurn).at(-1) ?? null;

    // An automatic compaction inside a turn: the first reply reports a context past the limit.
    const auto = await e.exec(
      repo,
      e.script("Run the tests again", [
        { call: "exec_command", arguments: { cmd: "npm test" }, usage: 200_000 },
        { text: "Still failing." },
      ]),
      { resume: sessionId, args: ["-c", "model_auto_compact_token_limit=100000"] },
    );
    afterAuto = e.firstTurnAfterCompaction(auto.requests);

    // Uninstalled, the next compaction gets nothing of ours.
    const log = () => readFileSync(join(e.state, "debug.log"), "utf8");
    const before = log();
    const u = e.rehydrate(["uninstall", "--agent", "codex", "--project", repo], repo);
    const third = await e.exec(
      repo,
      e.script("And once more", [
        { call: "exec_command", arguments: { cmd: "npm test" }, usage: 200_000 },
        { text: "Done." },
      ]),
      { resume: sessionId, args: ["-c", "model_auto_compact_token_limit=100000"] },
    );
    afterUninstall = e.firstTurnAfterCompaction(third.requests);
    uninstalled = {
      status: u.status,
      config: readFileSync(join(e.codexHome, "config.toml"), "utf8"),
      logBefore: before,
      logAfter: log(),
    };
  });

  after(() => {
    e?.tmuxStop();
    e?.close();
  });

  test("the installer's trust holds: no hook review, and the hooks ran", () => {
    assert.equal(reviewShown, false, e.tmuxScreen());
    assert.match(readFileSync(join(e.state, "debug.log"), "utf8"), /PreCompact|SessionStart: delivery/);
  });

  test("the first request after /compact holds SessionStart's element once, with the latest request and the failing test", () => {
    const { start } = split(afterCompact);
    assert.equal(start.length, 1, e.explain("SessionStart's <session-context> once", afterCompact, "<session-context"));
    assert.match(start[0], new RegExp(`<request latest="true">${LATEST.replace(/[+.]/g, "\\$&")}`));
    assert.match(start[0], /<command exit="1" failure="not ok 1 - [^"]*">npm test<\/command>/);
    assert.match(start[0], /ran last \(exec_command\)/);
  });

  test("beside it, once, what the mock's summary lacks: the open plan step and the edited files", () => {
    const { gaps } = split(afterCompact);
    assert.equal(gaps.length, 1, e.explain("the summary's gaps once", afterCompact, 'part="after-summary"'));
    assert.match(gaps[0], new RegExp(`<subject>${STEP.replace(/[.]/g, "\\.")}</subject>`));
    assert.match(gaps[0], /<file path="src\/format\.js"\/>/);
    assert.match(gaps[0], /<file path="test\/cents\.test\.js" created="true"\/>/);
    // The messages Codex keeps word for word in the compacted context are not repeated.
    assert.doesNotMatch(gaps[0], /The totals are off by a cent/);
  });

  test("the context came as a developer message, before the prompt after the compaction", () => {
    const body = afterCompact?.body as { input?: { role?: string; content?: { text?: string }[] }[] } | undefined;
    const input = body?.input ?? [];
    const ours = input.findIndex((m) =>
      m.role === "developer" && (m.content?.[0]?.text ?? "").includes("<session-context")
    );
    const prompt = input.findIndex((m) => m.role === "user" && (m.content?.[0]?.text ?? "") === NEXT);
    assert.ok(ours >= 0 && prompt > ours, `developer message at ${ours}, prompt at ${prompt}`);
  });

  test("a later turn does not get it again: the one copy in the history", () => {
    const { start, gaps } = split(later);
    assert.deepEqual(
      [start.length, gaps.length],
      [1, 1],
      e.explain("one copy in a later turn", later, "<session-context"),
    );
  });

  test("an automatic compaction inside a turn delivers the context once more, before the turn goes on", () => {
    const { start } = split(afterAuto);
    assert.equal(
      start.length,
      1,
      e.explain("SessionStart's element after the automatic compaction", afterAuto, "<session-context"),
    );
    assert.match(start[0], /<request latest="true">Run the tests again/);
    const log = uninstalled.logBefore;
    assert.equal((log.match(/delivered by session-start/g) ?? []).length, 2, log);
  });

  test("uninstall takes the hooks and their trust back: the next compaction gets nothing new", () => {
    assert.equal(uninstalled.status, 0);
    assert.doesNotMatch(uninstalled.config, /hooks\.state/);
    assert.equal(uninstalled.logAfter, uninstalled.logBefore);
    assert.ok(afterUninstall !== null, "a compaction after the uninstall");
    // The history still holds the two earlier deliveries, nothing more.
    const { start } = split(afterUninstall);
    assert.ok(start.every((x) => !x.includes("And once more")), start.join("\n"));
  });
});
