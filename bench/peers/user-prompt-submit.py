#!/usr/bin/env python3
"""UserPromptSubmit peer: the context monitor and compaction alert of design note 003 ("Method A":
fill from the transcript; checkpoints in .jerry/checkpoints/), in Python, as users write it today:
read the whole transcript, parse every line, keep the last main-chain assistant usage after the
last compaction. Writes .jerry/context-monitor-state.json; injects <context-monitor> from 60 % and
<compaction-alert> for an unacknowledged checkpoint. Same logic as user-prompt-submit.mjs."""
import json
import os
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

WINDOW = 200000


def main():
    data = json.load(sys.stdin)
    project_dir = os.environ.get("CLAUDE_PROJECT_DIR") or data.get("cwd")
    tokens = 0
    compactions = 0
    with open(data["transcript_path"], "r", encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if entry.get("type") == "system" and entry.get("subtype") == "compact_boundary":
                compactions += 1
                tokens = (entry.get("compactMetadata") or {}).get("postTokens") or 0
                continue
            if entry.get("type") != "assistant" or entry.get("isSidechain") or entry.get("isApiErrorMessage"):
                continue
            msg = entry.get("message") or {}
            u = msg.get("usage")
            if not u or msg.get("model") == "<synthetic>":
                continue
            tokens = (u.get("input_tokens") or 0) + (u.get("cache_read_input_tokens") or 0) + (u.get("cache_creation_input_tokens") or 0)
    fill = tokens / WINDOW
    level = "COMPACTION" if fill >= 0.9 else "CRITICAL" if fill >= 0.8 else "WARNING" if fill >= 0.6 else "NOMINAL"
    jerry = Path(project_dir) / ".jerry"
    jerry.mkdir(parents=True, exist_ok=True)
    (jerry / "context-monitor-state.json").write_text(json.dumps({
        "session_id": data.get("session_id"),
        "fill_percent": round(fill * 1000) / 10,
        "tokens": tokens,
        "window": WINDOW,
        "level": level,
        "compactions": compactions,
        "updated_at": datetime.now(timezone.utc).isoformat(),
    }, indent=2), encoding="utf-8")

    parts = []
    if level != "NOMINAL":
        todo = "Update the ORCHESTRATION.yaml resumption section." if level == "WARNING" else "Checkpoint NOW."
        parts.append(f"<context-monitor>\nLEVEL: {level}\nFILL: {fill * 100:.1f}% ({tokens} of {WINDOW} tokens)\n{todo}\n</context-monitor>")
    cp_dir = jerry / "checkpoints"
    if cp_dir.is_dir():
        files = sorted(f for f in os.listdir(cp_dir) if re.match(r"^cx-\d+-checkpoint\.json$", f))
        for name in reversed(files):
            try:
                cp = json.loads((cp_dir / name).read_text(encoding="utf-8"))
                if cp.get("acknowledged"):
                    continue
                nxt = (cp.get("recovery") or {}).get("next_action") or "read ORCHESTRATION.yaml"
                parts.append(f"<compaction-alert>\nCONTEXT COMPACTION OCCURRED.\nCHECKPOINT: .jerry/checkpoints/{name}\nContinue from: {nxt}\n</compaction-alert>")
                break
            except Exception:
                parts.append("<compaction-alert>compaction occurred, read ORCHESTRATION.yaml</compaction-alert>")
                break
    if parts:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "\n".join(parts)}}), flush=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        print(f"user-prompt-submit: {e}", file=sys.stderr)
    sys.exit(0)
