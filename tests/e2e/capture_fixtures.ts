// Recaptures tests/fixtures/claude-code-<version>/ from the real client (the pinned devDependency):
// every hook's stdin, the session transcripts, and the transcript as it stood
// while PreCompact, SessionStart(compact) and PostCompact ran. Not a test: run it by hand after a
// client upgrade, read the diff, then point the tests at the new set (tests/fixtures/SOURCES.md).
//
//   bun build.ts && bun tests/e2e/capture_fixtures.ts tests/fixtures/claude-code-2.1.332
//
// Sessions: a headless one (a Read, a resume, a fork, a `/compact`, an automatic compaction from
// a "prompt is too long" reply, a background command whose completion the client injects as a
// turn of its own), and an interactive one in tmux (`/model`, `/clear`, `/exit`). Paths are
// rewritten to /home/dev/... as in the 2.1.197 set; nothing else is edited.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2e, REHYDRATE, ROOT, scripted } from "./harness.ts";
import { CAPTURE_HOOK as HOOK } from "./_capture_hook.ts";

const out = process.argv[2];
if (!out) {
  console.error("usage: bun tests/e2e/capture_fixtures.ts OUT_DIR");
  process.exit(2);
}

const EVENTS = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolBatch",
  "Stop",
  "StopFailure",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "PreModelSwitch",
  "PostModelSwitch",
  "Notification",
];

const e = await E2e.start("capture");
try {
  const work = join(e.dir, "capture");
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "hook.cjs"), HOOK);
  const repo = e.workspace(join(ROOT, "examples", "everyday"), { name: "demo-proj" });
  const local = JSON.parse(readFileSync(join(repo, ".claude", "settings.local.json"), "utf8"));
  local.hooks = Object.fromEntries(EVENTS.map((name) => [name, [{
    hooks: [{ type: "command", command: `node ${join(work, "hook.cjs")} ${work}`, timeout: 30 }],
  }]]));
  writeFileSync(join(repo, ".claude", "settings.local.json"), JSON.stringify(local, null, 2) + "\n");
  const p = (rel: string) => join(repo, rel);

  // Headless: startup, a Read and an edit, then resume, fork, /compact, auto compaction.
  const first = await e.claude(
    repo,
    scripted("The totals are off by a cent sometimes. Find out why.", [
      { tool: "Read", input: { file_path: p("src/format.js") } },
      { tool: "TaskCreate", input: { subject: "Fix rounding", description: "Sum integer cents." } },
      {
        tool: "Edit",
        input: { file_path: p("src/format.js"), old_string: "total += price;", new_string: "total += price * 100;" },
      },
      { text: "Done.", usage: 40_000 },
    ]),
  );
  const id = first.sessionId;
  await new Promise((r) => setTimeout(r, 2_000));
  await e.claude(repo, scripted("Now the test.", [{ text: "Next." }]), { resume: id });
  const fork = await e.claude(repo, scripted("Try another way.", [{ text: "Forked." }]), {
    resume: id,
    extraArgs: ["--fork-session"],
  });
  await e.claude(repo, "/compact", { resume: id });
  await e.claude(repo, scripted("Carry on.", [{ text: "Carrying on." }]), { resume: id });
  await e.claude(repo, scripted("And then?", [{ error: "too_long" }, { text: "Retried." }]), { resume: id });
  // A background command: its completion comes back as a turn the user did not type.
  await e.claude(
    repo,
    scripted("Run the slow check in the background.", [
      { tool: "Bash", input: { command: "sleep 2; echo checked", description: "Slow check", run_in_background: true } },
      { text: "Started." },
    ]),
    { resume: id },
  );

  // Interactive: a model switch, /clear and /exit.
  const interactive = !process.argv.includes("--no-tmux");
  if (interactive) {
    await e.tmuxStart(repo);
    e.tmuxType(scripted("Hello there.", [{ text: "Hi." }]));
    await e.waitFor(() => e.tmuxScreen().includes("Hi."), "the first reply", 60_000);
    e.tmuxType("/model claude-sonnet-4-6");
    // 2.1.332 may ask first ("Switch model?", when the switch loses the prompt cache).
    await e.waitFor(() => /Switch model\?|Sonnet 4\.6/.test(e.tmuxScreen()), "the model switch", 30_000);
    if (e.tmuxScreen().includes("Switch model?")) e.tmuxType("");
    await e.waitFor(() => !e.tmuxScreen().includes("Switch model?"), "the switch confirmed", 30_000);
    await new Promise((r) => setTimeout(r, 2_000));
    e.tmuxType(scripted("On the new model.", [{ text: "Switched." }]));
    await e.waitFor(() => e.tmuxScreen().includes("Switched."), "the reply after /model", 60_000);
    e.tmuxType("/clear");
    const cleared = () => readdirSync(join(work, "raw")).some((n) => n.endsWith("SessionStart-clear.json"));
    await e.waitFor(cleared, "SessionStart(clear)", 30_000);
    await new Promise((r) => setTimeout(r, 1_000));
    e.tmuxType("/exit");
    await new Promise((r) => setTimeout(r, 3_000));
    e.tmuxStop();
  }

  // Write the set, paths rewritten (the client's temp dir is /tmp/claude-<uid>).
  const rewrite = (text: string) =>
    text
      .replaceAll(repo.replace(/[^a-zA-Z0-9]/g, "-"), "-home-dev-work-demo-proj")
      .replaceAll(repo, "/home/dev/work/demo-proj")
      .replaceAll(e.home, "/home/dev")
      .replaceAll(e.dir, "/home/dev/tmp")
      .replaceAll(REHYDRATE, "/home/dev/.local/bin/rehydrate")
      .replace(/\/tmp\/claude-\d+\//g, "/tmp/claude-1000/");
  // Since 2.1.3xx a transcript also holds the client's whole system prompt and tool definitions
  // (`api-request-shape` rows, `prompt_snapshot` attachments): Anthropic's text, which no test
  // reads. They are kept as rows, their text replaced, so parsers still meet these row types.
  const REMOVED = "(removed from the fixture: the client's system prompt)";
  const transcript = (text: string) =>
    rewrite(text).split("\n").map((line) => {
      if (!line.includes('"api-request-shape"') && !line.includes('"prompt_snapshot"')) return line;
      const row = JSON.parse(line);
      if (row.type === "api-request-shape") row.shape = { removed: REMOVED };
      else if (row.attachment?.type === "prompt_snapshot") row.attachment.systemPrompt = [REMOVED];
      return JSON.stringify(row);
    }).join("\n");
  rmSync(out, { recursive: true, force: true });
  for (const sub of ["hook-inputs", "transcripts", "transcript-snapshots"]) {
    mkdirSync(join(out, sub), { recursive: true });
  }
  const seen = new Set<string>();
  for (const name of readdirSync(join(work, "raw")).sort().reverse()) {
    // The newest input of each event and variant.
    const key = name.replace(/^\d+-\d+-/, "");
    if (seen.has(key)) continue;
    seen.add(key);
    writeFileSync(join(out, "hook-inputs", key), rewrite(readFileSync(join(work, "raw", name), "utf8")));
  }
  if (existsSync(join(work, "snapshots"))) {
    for (const name of readdirSync(join(work, "snapshots"))) {
      const target = name.replace(/-\d+\.jsonl$/, ".jsonl");
      writeFileSync(
        join(out, "transcript-snapshots", target),
        transcript(readFileSync(join(work, "snapshots", name), "utf8")),
      );
    }
  }
  const projects = join(e.home, ".claude", "projects");
  for (const dir of readdirSync(projects)) {
    for (const name of readdirSync(join(projects, dir))) {
      if (name.endsWith(".jsonl")) {
        writeFileSync(join(out, "transcripts", name), transcript(readFileSync(join(projects, dir, name), "utf8")));
      }
    }
  }
  const version = spawnSync(e.client, ["--version"], { encoding: "utf8" }).stdout.trim();
  console.log(`captured ${seen.size} hook inputs from ${version} into ${out} (fork session ${fork.sessionId})`);
} finally {
  e.close();
}
