#!/usr/bin/env node
// UserPromptSubmit peer: the context monitor and compaction alert of design note 003 ("Method A":
// fill from the transcript; checkpoints in .jerry/checkpoints/), in Node, as users write it today:
// read the whole transcript, parse every line, keep the last main-chain assistant usage after the
// last compaction. Writes .jerry/context-monitor-state.json; injects <context-monitor> from 60 %
// and <compaction-alert> for an unacknowledged checkpoint. Same logic as user-prompt-submit.py.
import fs from "node:fs";
import path from "node:path";

const WINDOW = 200000;

function main() {
  const data = JSON.parse(fs.readFileSync(0, "utf8"));
  const projectDir = process.env.CLAUDE_PROJECT_DIR || data.cwd;
  let tokens = 0;
  let compactions = 0;
  for (const line of fs.readFileSync(data.transcript_path, "utf8").split("\n")) {
    if (!line.trim()) continue;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.type === "system" && entry.subtype === "compact_boundary") {
      compactions++;
      tokens = (entry.compactMetadata && entry.compactMetadata.postTokens) || 0;
      continue;
    }
    if (entry.type !== "assistant" || entry.isSidechain || entry.isApiErrorMessage) continue;
    const msg = entry.message || {};
    if (!msg.usage || msg.model === "<synthetic>") continue;
    const u = msg.usage;
    tokens = (u.input_tokens || 0) + (u.cache_read_input_tokens || 0) + (u.cache_creation_input_tokens || 0);
  }
  const fill = tokens / WINDOW;
  const level = fill >= 0.9 ? "COMPACTION" : fill >= 0.8 ? "CRITICAL" : fill >= 0.6 ? "WARNING" : "NOMINAL";
  const jerry = path.join(projectDir, ".jerry");
  fs.mkdirSync(jerry, { recursive: true });
  fs.writeFileSync(
    path.join(jerry, "context-monitor-state.json"),
    JSON.stringify(
      {
        session_id: data.session_id,
        fill_percent: Math.round(fill * 1000) / 10,
        tokens,
        window: WINDOW,
        level,
        compactions,
        updated_at: new Date().toISOString(),
      },
      null,
      2,
    ),
  );

  const parts = [];
  if (level !== "NOMINAL") {
    parts.push(
      `<context-monitor>\nLEVEL: ${level}\nFILL: ${(fill * 100).toFixed(1)}% (${tokens} of ${WINDOW} tokens)\n` +
        (level === "WARNING" ? "Update the ORCHESTRATION.yaml resumption section." : "Checkpoint NOW.") +
        "\n</context-monitor>",
    );
  }
  const dir = path.join(jerry, "checkpoints");
  if (fs.existsSync(dir)) {
    const files = fs.readdirSync(dir).filter((f) => /^cx-\d+-checkpoint\.json$/.test(f)).sort();
    for (const f of files.reverse()) {
      try {
        const cp = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
        if (cp.acknowledged) continue;
        parts.push(
          `<compaction-alert>\nCONTEXT COMPACTION OCCURRED.\nCHECKPOINT: .jerry/checkpoints/${f}\n` +
            `Continue from: ${
              (cp.recovery && cp.recovery.next_action) || "read ORCHESTRATION.yaml"
            }\n</compaction-alert>`,
        );
        break;
      } catch {
        parts.push("<compaction-alert>compaction occurred, read ORCHESTRATION.yaml</compaction-alert>");
        break;
      }
    }
  }
  if (parts.length) {
    process.stdout.write(
      JSON.stringify({
        hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: parts.join("\n") },
      }) + "\n",
    );
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`user-prompt-submit: ${err}\n`);
}
