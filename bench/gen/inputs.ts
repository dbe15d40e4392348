/**
 * Hook stdin for the benchmark cases, built from the payloads Claude Code 2.1.197 really sent
 * (tests/fixtures/claude-code-2.1.197/hook-inputs/*.json, copied here field for field so the
 * bench runs from a plain clone) with `session_id`, `transcript_path` and `cwd` rewritten and the
 * tool calls pointed into the benchmark workspace.
 */
import { ACTIVE_PROJECT, ORCHESTRATION_DIR } from "./workspace.ts";
import { MODEL } from "./transcript.ts";

/** One benchmark case's hook: the binary, the event and the payload variant. */
export interface HookCase {
  /** Case id, e.g. `session-start@startup`. */
  id: string;
  /** Binary name in dist/ (and multicall verb). */
  binary: string;
  /** `hook_event_name`. */
  event: string;
  /** Peer script base name in bench/peers/, when a peer exists. */
  peer?: string;
  /** Cases whose hooks run (untimed) after each restore and before the timed run: the state this case starts from. */
  prepare?: readonly string[];
}

/** A step of `prepare` that is no hook: date every file of the sandbox a minute back. */
export const AGE = "(a minute passes)";

/** Every case, in report order. */
export const HOOK_CASES: readonly HookCase[] = [
  { id: "pre-compact", binary: "pre-compact", event: "PreCompact", peer: "pre-compact" },
  { id: "post-compact", binary: "post-compact", event: "PostCompact" },
  { id: "session-start", binary: "session-start", event: "SessionStart", peer: "session-start" },
  { id: "session-start@startup", binary: "session-start", event: "SessionStart" },
  { id: "user-prompt-submit", binary: "user-prompt-submit", event: "UserPromptSubmit", peer: "user-prompt-submit" },
  // The usual prompt: SessionStart(compact) delivered and an earlier prompt left the monitor's
  // state, so only the monitor and the reminder run.
  {
    id: "user-prompt-submit@steady",
    binary: "user-prompt-submit",
    event: "UserPromptSubmit",
    prepare: ["session-start", "user-prompt-submit"],
  },
  // Most prompts of a session: the reminders are used up (3 by default), so only the context
  // monitor runs (it still writes its state file on every prompt). A minute passes between the
  // prompts (AGE: the sandbox's files are dated back), as it does when a person types them, and the
  // prompt before the timed one leaves the memo that lets it take the fast path
  // (lib/events/quiet_prompt.ts); a file changed in the last two seconds would not be trusted.
  {
    id: "user-prompt-submit@quiet",
    binary: "user-prompt-submit",
    event: "UserPromptSubmit",
    prepare: [
      "session-start",
      "user-prompt-submit",
      "user-prompt-submit",
      "user-prompt-submit",
      AGE,
      "user-prompt-submit@quiet",
    ],
  },
  { id: "pre-tool-use", binary: "pre-tool-use", event: "PreToolUse" },
  // PostToolUse after an ordinary Edit (most tool calls) and after an Edit of ORCHESTRATION.yaml
  // (the staleness check parses it). Until 2026-11-24 the bare id was the ORCHESTRATION.yaml edit
  // and the ordinary Edit was `post-tool-use@edit`.
  { id: "post-tool-use", binary: "post-tool-use", event: "PostToolUse" },
  { id: "post-tool-use@orchestration", binary: "post-tool-use", event: "PostToolUse" },
  { id: "stop", binary: "stop", event: "Stop" },
];

/** Where the payload points. */
export interface InputContext {
  sessionId: string;
  transcriptPath: string;
  /** The workspace (also `CLAUDE_PROJECT_DIR`). */
  cwd: string;
}

const PROMPT_ID = "977e0c22-4ab9-44d6-97b2-4396386733f3";

/**
 * The stdin JSON of `caseId` for a session.
 *
 * @example
 * ```ts
 * hookInput("stop", { sessionId: "s", transcriptPath: "/t.jsonl", cwd: "/w" });
 * ```
 */
export function hookInput(caseId: string, ctx: InputContext): string {
  const base = { session_id: ctx.sessionId, transcript_path: ctx.transcriptPath, cwd: ctx.cwd };
  const steps = `${ctx.cwd}/02-projects/${ACTIVE_PROJECT}/01-planning/04-steps.md`;
  const orchestration = `${ctx.cwd}/${ORCHESTRATION_DIR}/ORCHESTRATION.yaml`;
  let payload: Record<string, unknown>;
  switch (caseId) {
    case "pre-compact":
      payload = {
        ...base,
        prompt_id: PROMPT_ID,
        hook_event_name: "PreCompact",
        trigger: "auto",
        custom_instructions: null,
      };
      break;
    case "post-compact":
      payload = {
        ...base,
        prompt_id: PROMPT_ID,
        hook_event_name: "PostCompact",
        trigger: "auto",
        compact_summary: "<analysis>The user is executing project " + ACTIVE_PROJECT + ".</analysis>\n<summary>\n" +
          "1. Primary Request and Intent: continue " + ACTIVE_PROJECT +
          ", task by task.\n2. Key Technical Concepts: steps file, manifest.\n" +
          "3. Files and Code Sections: 01-planning/04-steps.md, 03-working/src/main.ts.\n4. Errors and fixes: none.\n5. Problem Solving: n/a.\n" +
          "6. All user messages: see transcript.\n7. Pending Tasks: the next unchecked step.\n8. Current Work: editing main.ts.\n" +
          "9. Optional Next Step: run the tests.\n</summary>",
      };
      break;
    case "session-start":
      payload = {
        ...base,
        prompt_id: "e98f9f21-05c4-45e3-b9f1-57e63b056b71",
        hook_event_name: "SessionStart",
        source: "compact",
        model: MODEL,
      };
      break;
    case "session-start@startup":
      payload = { ...base, hook_event_name: "SessionStart", source: "startup", model: MODEL };
      break;
    case "user-prompt-submit":
    case "user-prompt-submit@steady":
    case "user-prompt-submit@quiet":
      payload = {
        ...base,
        prompt_id: "378d7424-8205-49b7-aaa9-8e003f61053d",
        permission_mode: "default",
        hook_event_name: "UserPromptSubmit",
        prompt: `please continue with the next task of ${ACTIVE_PROJECT}`,
      };
      break;
    case "pre-tool-use":
      payload = {
        ...base,
        prompt_id: "378d7424-8205-49b7-aaa9-8e003f61053d",
        permission_mode: "default",
        effort: { level: "high" },
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: steps },
        tool_use_id: "toolu_9cbb597a149e143a2980c1cd",
      };
      break;
    case "post-tool-use":
      // The usual tool call: an Edit of a project file, nothing for the staleness check to read.
      payload = editPayload(base, steps, "- [ ] ", "- [x] ", "toolu_9cbb597a149e143a2980c1cf", 3);
      break;
    case "post-tool-use@orchestration":
      payload = editPayload(
        base,
        orchestration,
        "current_gate_iteration: 1",
        "current_gate_iteration: 2",
        "toolu_9cbb597a149e143a2980c1ce",
        4,
      );
      break;
    case "stop":
      payload = {
        ...base,
        prompt_id: "378d7424-8205-49b7-aaa9-8e003f61053d",
        permission_mode: "default",
        effort: { level: "high" },
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: `Done with the step; next is the first unchecked task of ${ACTIVE_PROJECT}.`,
        background_tasks: [],
        session_crons: [],
      };
      break;
    default:
      throw new Error(`Unknown hook case: ${caseId}`);
  }
  return JSON.stringify(payload);
}

/** The PostToolUse payload of an Edit of `file` that replaced `oldString` with `newString`. */
function editPayload(
  base: Record<string, unknown>,
  file: string,
  oldString: string,
  newString: string,
  toolUseId: string,
  ms: number,
) {
  return {
    ...base,
    prompt_id: "378d7424-8205-49b7-aaa9-8e003f61053d",
    permission_mode: "default",
    effort: { level: "high" },
    hook_event_name: "PostToolUse",
    tool_name: "Edit",
    tool_input: { file_path: file, old_string: oldString, new_string: newString, replace_all: false },
    tool_response: {
      filePath: file,
      oldString,
      newString,
      originalFile: null,
      structuredPatch: [],
      userModified: false,
      replaceAll: false,
    },
    tool_use_id: toolUseId,
    duration_ms: ms,
  };
}
