#!/usr/bin/env python3
"""SessionStart peer: the resume logic of design note 000 ("Agent 2") with the corrections of
note 001 (manifest `01-planning/resume-context.md`, legacy `_resume.md`; `clear` never resumes),
in Python, as users run it today. It reads 00-system/.cache/precompact_state.json, parses the
manifest's frontmatter with the note's hand-written parser, and injects the note's mandatory
loading sequence as `additionalContext` (JSON-encoded context, as the note does). The note's
`load_full_startup_context` (a workspace loader not in the note) is left out, which only makes
this peer faster. Same logic as session-start.mjs. The emoji are the ones the note's mojibake
stands for."""
import json
import os
import sys
from pathlib import Path


def parse_resume_yaml(resume_path):
    try:
        content = resume_path.read_text(encoding="utf-8")
        if not content.startswith("---"):
            return None
        end_marker_pos = content.find("---", 3)
        if end_marker_pos == -1:
            return None
        yaml_content = content[3:end_marker_pos].strip()
        result = {}
        current_key = None
        current_list = []
        for line in yaml_content.split("\n"):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("- "):
                if current_key == "files_to_load":
                    current_list.append(line[2:].split("  #")[0].strip())
                continue
            if ":" in line:
                if current_key == "files_to_load" and current_list:
                    result["files_to_load"] = current_list
                    current_list = []
                key, value = line.split(":", 1)
                key = key.strip()
                value = value.split("  #")[0].strip().strip('"')
                current_key = key
                if key == "files_to_load":
                    continue
                elif key in ("current_task", "current_section"):
                    result[key] = int(value) if value.isdigit() else None
                else:
                    result[key] = value
        if current_key == "files_to_load" and current_list:
            result["files_to_load"] = current_list
        return result if result else None
    except Exception:
        return None


def build_catastrophic_resume_instructions(project_id, resume_path, resume_data, confidence):
    files = resume_data.get("files_to_load", [])
    next_action = resume_data.get("next_action", "execute-project")
    current_task = resume_data.get("current_task", "unknown")
    current_phase = resume_data.get("current_phase", "unknown")
    project_base = resume_path.parent.parent
    absolute_files = [str(project_base / f) for f in files]
    rule = "═" * 67
    instructions = f"""
🚨🚨🚨 CATASTROPHIC MANDATORY LOADING SEQUENCE 🚨🚨🚨
⚠️⚠️⚠️ FAILURE TO FOLLOW = COMPLETE CONTEXT LOSS ⚠️⚠️⚠️
🛑🛑🛑 DO NOT SKIP ANY STEP - VALIDATION REQUIRED 🛑🛑🛑

{rule}

DETECTED: Auto-resume after compaction (confidence: {confidence})

PROJECT DETECTED: {project_id}
CURRENT PHASE: {current_phase}
CURRENT TASK: {current_task}

{rule}

YOU MUST FOLLOW THIS EXACT SEQUENCE:

✓ STEP 1: READ RESUME FILE FIRST
   File: {resume_path}

✓ STEP 2: LOAD ALL REQUIRED FILES IN PARALLEL

   YOU MUST READ THESE FILES (use Read tool):

"""
    for i, file_path in enumerate(absolute_files, 1):
        instructions += f"   {i}. {file_path}\n"
    instructions += f"""
   🚨 CRITICAL: Use the Read tool to load ALL files above
   🚨 DO NOT proceed until ALL files are loaded

✓ STEP 3: ANSWER VALIDATION QUESTIONS
   1. What problem are we solving? (from overview.md)
   2. What is the next task? (from steps.md)
   3. What is the approach? (from plan.md)

✓ STEP 4: AUTO-EXECUTE SKILL
   Skill: {next_action}

{rule}

CHECKLIST (verify before continuing):

[ ] I have read {resume_path}
[ ] I have loaded ALL {len(files)} files from files_to_load
[ ] I can answer all 3 validation questions
[ ] I am ready to execute {next_action}

🛑 DO NOT RESPOND TO THE USER UNTIL YOU COMPLETE ALL STEPS 🛑
"""
    return instructions.strip()


def main():
    data = json.load(sys.stdin)
    project_dir = os.environ.get("CLAUDE_PROJECT_DIR") or data.get("cwd")
    source = data.get("source", "startup")
    context = {"session": {"source": source, "session_id": data.get("session_id")}}
    try:
        precompact_state_path = Path(project_dir) / "00-system" / ".cache" / "precompact_state.json"
        if source == "clear":
            context["resume_mode"] = {"active": False, "reason": "clear never resumes"}
        elif precompact_state_path.exists():
            try:
                with open(precompact_state_path, "r", encoding="utf-8") as f:
                    precompact_state = json.load(f)
                active_project_id = precompact_state.get("active_project_id")
                confidence = precompact_state.get("confidence", "unknown")
                if active_project_id and confidence in ("high", "medium"):
                    planning = Path(project_dir) / "02-projects" / active_project_id / "01-planning"
                    resume_path = planning / "resume-context.md"
                    if not resume_path.exists():
                        resume_path = planning / "_resume.md"
                    if resume_path.exists():
                        resume_data = parse_resume_yaml(resume_path)
                        if resume_data and "files_to_load" in resume_data:
                            context["resume_mode"] = {
                                "active": True,
                                "project_id": active_project_id,
                                "confidence": confidence,
                                "resume_file": str(resume_path),
                                "files_to_load": resume_data.get("files_to_load", []),
                                "next_action": resume_data.get("next_action", "execute-project"),
                                "current_task": resume_data.get("current_task"),
                                "current_section": resume_data.get("current_section"),
                            }
                            context["MANDATORY_LOADING_SEQUENCE"] = build_catastrophic_resume_instructions(
                                active_project_id, resume_path, resume_data, confidence)
                        else:
                            context["resume_mode"] = {"active": False, "error": f"Invalid resume-context.md YAML in {active_project_id}"}
                    else:
                        context["resume_mode"] = {"active": False, "error": f"Active project {active_project_id} detected, but resume-context.md not found"}
                else:
                    context["resume_mode"] = {"active": False, "reason": f"Low confidence ({confidence}) - not auto-resuming"}
                precompact_state_path.unlink(missing_ok=True)
            except json.JSONDecodeError as e:
                context["resume_mode"] = {"active": False, "error": f"Invalid precompact_state.json: {e}"}
        else:
            context["resume_mode"] = {"active": False, "reason": "No precompact_state.json found"}
    except Exception as e:
        import traceback
        context["resume_mode"] = {"active": False, "error": str(e), "traceback": traceback.format_exc()}
    hook_output = {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": json.dumps(context, ensure_ascii=False),
        }
    }
    print(json.dumps(hook_output), flush=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        print(f"session-start: {e}", file=sys.stderr)
    sys.exit(0)
