// Recaptures tests/fixtures/codex-<version>/ from the real Codex CLI (the pinned devDependency)
// against the Responses-API mock: every hook's stdin, the rollout files, the rollout as it stood
// while PreCompact, PostCompact and SessionStart(compact) ran, and the CODEX_HOME the client left
// (config.toml with the trust it wrote itself, hooks.json). Not a test: run it by hand after a
// client upgrade, read the diff, then point the tests at the new set (tests/fixtures/SOURCES.md).
//
//   bun build.ts --only rehydrate && bun tests/e2e/capture_codex_fixtures.ts tests/fixtures/codex-0.171.0
//
// One session in a copy of examples/everyday: `codex exec` with a plan (update_plan), a read, a
// patch and a failing `npm test`; `codex exec resume` with a second request; the interactive
// client in tmux (resumed) for `/compact` and the prompt after it; then `codex exec resume` with a
// reported usage past `model_auto_compact_token_limit`, for an automatic compaction inside a turn.
// A capture hook registered for all twelve events writes each input; the interactive client's own
// "Trust all and continue" writes the trust entries into config.toml, so no run bypasses the trust.
// Paths are rewritten to /home/dev/... as in the Claude Code sets; the client's own instructions
// (base instructions, its developer messages) are replaced by a placeholder; nothing else is edited.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ROOT } from "./harness.ts";
import { CODEX_VERSION, CodexE2e } from "./codex_harness.ts";
import { CAPTURE_HOOK as HOOK } from "./_capture_hook.ts";

const out = process.argv[2];
if (!out) {
  console.error("usage: bun tests/e2e/capture_codex_fixtures.ts OUT_DIR");
  process.exit(2);
}

/** What replaces the client's own instructions in the copied rollouts. */
const PLACEHOLDER = "(removed from the fixture: the client's own instructions)";

const EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PreCompact",
  "PostCompact",
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "Interrupt",
];

const e = await CodexE2e.startCodex("capture-codex");
try {
  const work = join(e.dir, "capture");
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "hook.cjs"), HOOK);
  const repo = e.workspace(join(ROOT, "examples", "everyday"), { name: "demo-proj", install: false });
  // The command names no path of this run (the environment does): the trust hashes the client
  // writes for it can be computed again from the fixture (tests/unit/cli/codex_install.test.ts).
  e.extraEnv = { REHYDRATE_CAPTURE_HOOK: join(work, "hook.cjs"), REHYDRATE_CAPTURE_DIR: work };
  const hooks = Object.fromEntries(EVENTS.map((name) => [name, [{
    hooks: [{ type: "command", command: 'node "$REHYDRATE_CAPTURE_HOOK" "$REHYDRATE_CAPTURE_DIR"', timeout: 30 }],
  }]]));
  writeFileSync(join(e.codexHome, "hooks.json"), JSON.stringify({ hooks }, null, 2) + "\n");
  // The client's own review: "Hooks need review", then "Trust all and continue" writes a
  // trusted_hash per hook into config.toml, as a user's first interactive start does.
  await e.tmuxStart(repo, { args: ["-s", "workspace-write", "-a", "never"] });
  await e.waitFor(() => e.tmuxScreen().includes("Trust all and continue"), "the hook review", 30_000);
  e.tmuxKey("Down");
  e.tmuxKey("Enter");
  await e.waitFor(
    () => readFileSync(join(e.codexHome, "config.toml"), "utf8").includes("trusted_hash"),
    "the trust entries",
  );
  await e.tmuxSettle("the composer");
  await e.tmuxQuit();

  const first = await e.exec(
    repo,
    e.script("The totals are off by a cent sometimes. Find out why.", [
      { call: "exec_command", arguments: { cmd: "sed -n '1,20p' src/format.js" } },
      {
        call: "update_plan",
        arguments: {
          explanation: "Sum in cents",
          plan: [
            { step: "Fix rounding: sum integer cents in src/format.js", status: "in_progress" },
            { step: "Add a regression test for 0.1 + 0.2", status: "pending" },
          ],
        },
      },
      {
        patch: "*** Begin Patch\n*** Update File: src/format.js\n@@\n-  for (const price of prices) total += price;\n" +
          "+  for (const price of prices) total += Math.round(price * 100);\n*** End Patch\n",
      },
      { call: "exec_command", arguments: { cmd: "npm test" } },
      { text: "format.js now sums integer cents; the test still expects euros." },
    ]),
  );
  console.log(`session ${first.sessionId}`);
  await e.exec(
    repo,
    e.script("Now write the regression test for 0.1 + 0.2", [
      {
        patch: '*** Begin Patch\n*** Add File: test/cents.test.js\n+import { test } from "node:test";\n' +
          '+test("cents", () => {});\n*** End Patch\n',
      },
      { text: "Added test/cents.test.js." },
    ]),
    { resume: first.sessionId },
  );

  // Interactive: resume, /compact, one prompt, exit.
  await e.tmuxStart(repo, {
    args: ["resume", first.sessionId, "-s", "workspace-write", "-a", "never"],
  });
  e.tmuxType("/compact");
  const rollout = e.rollout(first.sessionId);
  await e.waitFor(() => e.rolloutRows(rollout, "compacted").length >= 1, "the manual compaction", 60_000);
  await e.tmuxSettle("the screen after /compact");
  e.tmuxType("Keep going with the cents fix");
  await e.waitFor(
    () => e.rolloutRows(rollout, "event_msg", "task_complete").length >= 3,
    "the turn after /compact",
    60_000,
  );
  await e.tmuxSettle("the screen after the turn");
  await e.tmuxQuit();

  // Automatic compaction inside a turn: the first reply reports a context past the limit.
  await e.exec(
    repo,
    e.script("Run the tests again", [
      { call: "exec_command", arguments: { cmd: "npm test" }, usage: 200_000 },
      { text: "Still failing." },
    ]),
    { resume: first.sessionId, args: ["-c", "model_auto_compact_token_limit=100000"] },
  );

  // ---- write the fixture set ----
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "hook-inputs"), { recursive: true });
  mkdirSync(join(out, "rollouts"), { recursive: true });
  mkdirSync(join(out, "rollout-snapshots"), { recursive: true });
  mkdirSync(join(out, "codex-home"), { recursive: true });
  const rewrite = (text: string) =>
    text.replaceAll(repo, "/home/dev/work/demo-proj").replaceAll(e.codexHome, "/home/dev/.codex")
      .replaceAll(e.home, "/home/dev").replaceAll(work, "/home/dev/capture").replaceAll(e.dir, "/tmp/e2e");
  const raw = readdirSync(join(work, "raw")).sort();
  const newest = new Map<string, string>();
  for (const name of raw) newest.set(name.replace(/^\d+-\d+-/, ""), name);
  for (const [key, name] of newest) {
    writeFileSync(join(out, "hook-inputs", key), rewrite(readFileSync(join(work, "raw", name), "utf8")));
  }
  for (const path of e.rollouts()) {
    writeFileSync(join(out, "rollouts", basename(path)), cleanRollout(rewrite(readFileSync(path, "utf8"))));
  }
  if (existsSync(join(work, "snapshots"))) {
    for (const name of readdirSync(join(work, "snapshots")).sort()) {
      const text = readFileSync(join(work, "snapshots", name), "utf8");
      writeFileSync(
        join(out, "rollout-snapshots", name.replace(/-\d+-\d+\.jsonl$/, "") + "-" + nth(out, name) + ".jsonl"),
        cleanRollout(rewrite(text)),
      );
    }
  }
  for (const name of ["config.toml", "hooks.json"]) {
    writeFileSync(join(out, "codex-home", name), rewrite(readFileSync(join(e.codexHome, name), "utf8")));
  }
  writeFileSync(join(out, "VERSION"), `${CODEX_VERSION}\n`);
  console.log(`wrote ${out}`);
} finally {
  e.tmuxStop();
  e.close();
}

/** The number of snapshots of the same event already written, for a stable name. */
function nth(dir: string, name: string): number {
  const event = name.replace(/-\d+-\d+\.jsonl$/, "");
  return readdirSync(join(dir, "rollout-snapshots")).filter((n) => n.startsWith(event + "-")).length + 1;
}

/** A rollout with the client's own instructions replaced; every other row as the client wrote it. */
function cleanRollout(text: string): string {
  return text.split("\n").map((line) => {
    if (line === "") return line;
    const row = JSON.parse(line);
    const p = row.payload;
    if (row.type === "session_meta" && p?.base_instructions?.text) p.base_instructions.text = PLACEHOLDER;
    if (row.type === "response_item") cleanItem(p);
    if (row.type === "compacted" && Array.isArray(p?.replacement_history)) {
      for (const item of p.replacement_history) cleanItem(item);
    }
    if (row.type === "world_state") row.payload = { ...p, state: PLACEHOLDER };
    return JSON.stringify(row);
  }).join("\n");
}

/** A developer message the client wrote (not a hook's additional context) loses its text. */
function cleanItem(
  item: {
    type?: string;
    role?: string;
    content?: { text?: string }[];
    internal_chat_message_metadata_passthrough?: { content_item_kinds?: string[] };
  },
): void {
  if (item?.type !== "message" || item.role !== "developer" || !Array.isArray(item.content)) return;
  const kinds = item.internal_chat_message_metadata_passthrough?.content_item_kinds ?? [];
  if (kinds.includes("hooks.additional_context")) return;
  for (const c of item.content) if (typeof c.text === "string") c.text = PLACEHOLDER;
}
