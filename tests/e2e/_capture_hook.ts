// The hook the capture scripts register for every event (capture_fixtures.ts for Claude Code,
// capture_codex_fixtures.ts for Codex): it writes each input it gets, and copies the transcript
// while PreCompact, PostCompact and SessionStart(compact) run.

/** The capture hook: one file per input (`<seq>-<event>[-variant].json`), snapshots at compaction. */
export const CAPTURE_HOOK = `
const fs = require("node:fs"), path = require("node:path");
const dir = process.argv[2];
let text = "";
process.stdin.on("data", (d) => (text += d));
process.stdin.on("end", () => {
  const input = JSON.parse(text);
  const e = input.hook_event_name;
  const injected = typeof input.prompt === "string" && input.prompt.startsWith("<task-notification>");
  const variant = input.source ?? input.trigger ?? input.tool_name ?? input.reason ?? (injected ? "task-notification" : "");
  const seq = String(Date.now()) + "-" + process.pid;
  fs.mkdirSync(path.join(dir, "raw"), { recursive: true });
  fs.writeFileSync(path.join(dir, "raw", seq + "-" + e + (variant ? "-" + variant : "") + ".json"), text.trim() + "\\n");
  const snap = e === "PreCompact" || e === "PostCompact" || (e === "SessionStart" && input.source === "compact");
  if (snap && input.transcript_path && fs.existsSync(input.transcript_path)) {
    const t = new Date().toISOString().slice(11, 19).replaceAll(":", "");
    fs.mkdirSync(path.join(dir, "snapshots"), { recursive: true });
    fs.copyFileSync(input.transcript_path, path.join(dir, "snapshots", "at-" + e + "-" + t + "-" + process.pid + ".jsonl"));
  }
});
`;
