#!/usr/bin/env node
// SessionStart peer: the resume logic of design note 000 ("Agent 2") with the corrections of
// note 001 (manifest 01-planning/resume-context.md, legacy _resume.md; `clear` never resumes), in
// Node, as users run it today. Reads 00-system/.cache/precompact_state.json, parses the manifest's
// frontmatter with the note's hand-written parser and injects the note's mandatory loading
// sequence as additionalContext (JSON-encoded context, as the note does). Same logic as
// session-start.py.
import fs from "node:fs";
import path from "node:path";

function parseResumeYaml(resumePath) {
  try {
    const content = fs.readFileSync(resumePath, "utf8");
    if (!content.startsWith("---")) return null;
    const end = content.indexOf("---", 3);
    if (end === -1) return null;
    const result = {};
    let currentKey = null;
    let currentList = [];
    for (let line of content.slice(3, end).trim().split("\n")) {
      line = line.trim();
      if (!line || line.startsWith("#")) continue;
      if (line.startsWith("- ")) {
        if (currentKey === "files_to_load") currentList.push(line.slice(2).split("  #")[0].trim());
        continue;
      }
      const colon = line.indexOf(":");
      if (colon === -1) continue;
      if (currentKey === "files_to_load" && currentList.length) {
        result.files_to_load = currentList;
        currentList = [];
      }
      const key = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).split("  #")[0].trim().replace(/^"+|"+$/g, "");
      currentKey = key;
      if (key === "files_to_load") continue;
      if (key === "current_task" || key === "current_section") result[key] = /^\d+$/.test(value) ? Number(value) : null;
      else result[key] = value;
    }
    if (currentKey === "files_to_load" && currentList.length) result.files_to_load = currentList;
    return Object.keys(result).length ? result : null;
  } catch {
    return null;
  }
}

function buildCatastrophicResumeInstructions(projectId, resumePath, resumeData, confidence) {
  const files = resumeData.files_to_load || [];
  const nextAction = resumeData.next_action || "execute-project";
  const currentTask = resumeData.current_task ?? "unknown";
  const currentPhase = resumeData.current_phase || "unknown";
  const projectBase = path.dirname(path.dirname(resumePath));
  const absoluteFiles = files.map((f) => path.join(projectBase, f));
  const rule = "═".repeat(67);
  let s = `
🚨🚨🚨 CATASTROPHIC MANDATORY LOADING SEQUENCE 🚨🚨🚨
⚠️⚠️⚠️ FAILURE TO FOLLOW = COMPLETE CONTEXT LOSS ⚠️⚠️⚠️
🛑🛑🛑 DO NOT SKIP ANY STEP - VALIDATION REQUIRED 🛑🛑🛑

${rule}

DETECTED: Auto-resume after compaction (confidence: ${confidence})

PROJECT DETECTED: ${projectId}
CURRENT PHASE: ${currentPhase}
CURRENT TASK: ${currentTask}

${rule}

YOU MUST FOLLOW THIS EXACT SEQUENCE:

✓ STEP 1: READ RESUME FILE FIRST
   File: ${resumePath}

✓ STEP 2: LOAD ALL REQUIRED FILES IN PARALLEL

   YOU MUST READ THESE FILES (use Read tool):

`;
  absoluteFiles.forEach((f, i) => {
    s += `   ${i + 1}. ${f}\n`;
  });
  s += `
   🚨 CRITICAL: Use the Read tool to load ALL files above
   🚨 DO NOT proceed until ALL files are loaded

✓ STEP 3: ANSWER VALIDATION QUESTIONS
   1. What problem are we solving? (from overview.md)
   2. What is the next task? (from steps.md)
   3. What is the approach? (from plan.md)

✓ STEP 4: AUTO-EXECUTE SKILL
   Skill: ${nextAction}

${rule}

CHECKLIST (verify before continuing):

[ ] I have read ${resumePath}
[ ] I have loaded ALL ${files.length} files from files_to_load
[ ] I can answer all 3 validation questions
[ ] I am ready to execute ${nextAction}

🛑 DO NOT RESPOND TO THE USER UNTIL YOU COMPLETE ALL STEPS 🛑
`;
  return s.trim();
}

function main() {
  const data = JSON.parse(fs.readFileSync(0, "utf8"));
  const projectDir = process.env.CLAUDE_PROJECT_DIR || data.cwd;
  const source = data.source || "startup";
  const context = { session: { source, session_id: data.session_id } };
  try {
    const statePath = path.join(projectDir, "00-system", ".cache", "precompact_state.json");
    if (source === "clear") {
      context.resume_mode = { active: false, reason: "clear never resumes" };
    } else if (fs.existsSync(statePath)) {
      let state;
      try {
        state = JSON.parse(fs.readFileSync(statePath, "utf8"));
      } catch (e) {
        context.resume_mode = { active: false, error: `Invalid precompact_state.json: ${e}` };
      }
      if (state) {
        const id = state.active_project_id;
        const confidence = state.confidence || "unknown";
        if (id && (confidence === "high" || confidence === "medium")) {
          const planning = path.join(projectDir, "02-projects", id, "01-planning");
          let resumePath = path.join(planning, "resume-context.md");
          if (!fs.existsSync(resumePath)) resumePath = path.join(planning, "_resume.md");
          if (fs.existsSync(resumePath)) {
            const resumeData = parseResumeYaml(resumePath);
            if (resumeData && resumeData.files_to_load) {
              context.resume_mode = {
                active: true,
                project_id: id,
                confidence,
                resume_file: resumePath,
                files_to_load: resumeData.files_to_load,
                next_action: resumeData.next_action || "execute-project",
                current_task: resumeData.current_task ?? null,
                current_section: resumeData.current_section ?? null,
              };
              context.MANDATORY_LOADING_SEQUENCE = buildCatastrophicResumeInstructions(
                id,
                resumePath,
                resumeData,
                confidence,
              );
            } else {
              context.resume_mode = { active: false, error: `Invalid resume-context.md YAML in ${id}` };
            }
          } else {
            context.resume_mode = {
              active: false,
              error: `Active project ${id} detected, but resume-context.md not found`,
            };
          }
        } else {
          context.resume_mode = { active: false, reason: `Low confidence (${confidence}) - not auto-resuming` };
        }
        fs.rmSync(statePath, { force: true });
      }
    } else {
      context.resume_mode = { active: false, reason: "No precompact_state.json found" };
    }
  } catch (e) {
    context.resume_mode = { active: false, error: String(e), traceback: e && e.stack };
  }
  const out = { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: JSON.stringify(context) } };
  process.stdout.write(JSON.stringify(out) + "\n");
}

try {
  main();
} catch (err) {
  process.stderr.write(`session-start: ${err}\n`);
}
