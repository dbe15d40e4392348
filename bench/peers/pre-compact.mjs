#!/usr/bin/env node
// PreCompact peer: the hook written the way users write it today (design notes 000 and 001,
// "Agent 1"), in Node. It reads the whole transcript, parses every line, finds the active project
// from the tool calls and writes the flat 00-system/.cache/precompact_state.json. Same logic as
// pre-compact.py; prints nothing (PreCompact stdout goes to the summarizer, see the notes' README).
import fs from "node:fs";
import path from "node:path";

const PROJECT_RE = /02-projects[\/\\](\d{2}-[a-z0-9-]+)/;
const FILE_TOOLS = new Set(["Read", "Write", "Edit", "MultiEdit", "NotebookEdit"]);

try {
  const input = JSON.parse(fs.readFileSync(0, "utf8"));
  const projectDir = process.env.CLAUDE_PROJECT_DIR || input.cwd;
  const lines = fs.readFileSync(input.transcript_path, "utf8").split("\n");
  const calls = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.type !== "assistant" || entry.isSidechain) continue;
    const content = entry.message && entry.message.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (!block || block.type !== "tool_use") continue;
      const inp = block.input || {};
      const text = [inp.file_path, inp.notebook_path, inp.path, inp.command, inp.pattern, inp.prompt].filter(Boolean)
        .join(" ");
      const m = PROJECT_RE.exec(text);
      calls.push({
        tool: block.name,
        project: m ? m[1] : null,
        file: inp.file_path || inp.path || null,
        skill: inp.skill || null,
        timestamp: entry.timestamp,
      });
    }
  }

  const recent = calls.slice(-20);
  const scores = new Map();
  recent.forEach((c, i) => {
    if (c.project) scores.set(c.project, (scores.get(c.project) || 0) + 1 + i / recent.length);
  });
  let active = null;
  let best = 0;
  for (const [project, score] of scores) {
    if (score > best) {
      best = score;
      active = project;
    }
  }
  let confidence = "unknown";
  if (active) {
    const direct = recent.filter((c) => c.project === active && FILE_TOOLS.has(c.tool)).length;
    const skill = recent.some((c) =>
      c.tool === "Skill" && (c.skill === "execute-project" || c.skill === "plan-project")
    );
    confidence = direct >= 3 ? "high" : direct >= 1 || skill ? "medium" : "low";
  }
  const state = {
    active_project_id: active,
    confidence,
    detection_method: "transcript",
    timestamp: new Date().toISOString(),
    session_id: input.session_id,
    trigger: input.trigger,
    last_tool_calls: calls.filter((c) => c.file).slice(-5).map((c) => ({
      tool: c.tool,
      file: c.file,
      timestamp: c.timestamp,
    })),
  };
  const cacheDir = path.join(projectDir, "00-system", ".cache");
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(path.join(cacheDir, "precompact_state.json"), JSON.stringify(state, null, 2));
} catch (err) {
  process.stderr.write(`pre-compact: ${err}\n`);
}
