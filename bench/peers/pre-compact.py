#!/usr/bin/env python3
"""PreCompact peer: the hook written the way users write it today (design notes 000 and 001,
"Agent 1"), in Python. It reads the whole transcript, parses every line, finds the active project
from the tool calls and writes the flat 00-system/.cache/precompact_state.json. Same logic as
pre-compact.mjs; prints nothing (PreCompact stdout goes to the summarizer)."""
import json
import os
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

PROJECT_RE = re.compile(r"02-projects[/\\](\d{2}-[a-z0-9-]+)")
FILE_TOOLS = {"Read", "Write", "Edit", "MultiEdit", "NotebookEdit"}


def main():
    data = json.load(sys.stdin)
    project_dir = os.environ.get("CLAUDE_PROJECT_DIR") or data.get("cwd")
    calls = []
    with open(data["transcript_path"], "r", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if entry.get("type") != "assistant" or entry.get("isSidechain"):
                continue
            content = (entry.get("message") or {}).get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if not isinstance(block, dict) or block.get("type") != "tool_use":
                    continue
                inp = block.get("input") or {}
                text = " ".join(str(inp[k]) for k in ("file_path", "notebook_path", "path", "command", "pattern", "prompt") if inp.get(k))
                m = PROJECT_RE.search(text)
                calls.append({
                    "tool": block.get("name"),
                    "project": m.group(1) if m else None,
                    "file": inp.get("file_path") or inp.get("path"),
                    "skill": inp.get("skill"),
                    "timestamp": entry.get("timestamp"),
                })

    recent = calls[-20:]
    scores = {}
    for i, c in enumerate(recent):
        if c["project"]:
            scores[c["project"]] = scores.get(c["project"], 0) + 1 + i / len(recent)
    active = None
    best = 0
    for project, score in scores.items():
        if score > best:
            best, active = score, project
    confidence = "unknown"
    if active:
        direct = sum(1 for c in recent if c["project"] == active and c["tool"] in FILE_TOOLS)
        skill = any(c["tool"] == "Skill" and c["skill"] in ("execute-project", "plan-project") for c in recent)
        confidence = "high" if direct >= 3 else "medium" if direct >= 1 or skill else "low"
    state = {
        "active_project_id": active,
        "confidence": confidence,
        "detection_method": "transcript",
        "timestamp": datetime.now(timezone.utc).isoformat(),
        "session_id": data.get("session_id"),
        "trigger": data.get("trigger"),
        "last_tool_calls": [{"tool": c["tool"], "file": c["file"], "timestamp": c["timestamp"]} for c in calls if c["file"]][-5:],
    }
    cache_dir = Path(project_dir) / "00-system" / ".cache"
    cache_dir.mkdir(parents=True, exist_ok=True)
    (cache_dir / "precompact_state.json").write_text(json.dumps(state, indent=2), encoding="utf-8")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        print(f"pre-compact: {e}", file=sys.stderr)
    sys.exit(0)
