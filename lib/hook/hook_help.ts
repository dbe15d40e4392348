import { HOOK_NAMES } from "./hook_names.ts";
import { VERSION } from "./version.ts";

const WHAT: Record<string, string> = {
  "pre-compact":
    "Before compaction: saves what the agent was working on (redacted, atomic) and prints\nplain-text instructions that Claude Code appends to the summarizer's prompt.",
  "post-compact": "After compaction: stores Claude Code's compact_summary with the latest checkpoint.",
  "session-start":
    "On startup, resume, clear, compact and fork: records the session and re-injects the\nright context (additionalContext) after a compaction.",
  "user-prompt-submit":
    "On every prompt: context-window monitor, compaction alerts, and re-delivery when\nSessionStart's output was dropped.",
  "pre-tool-use":
    "On every tool call: denies the first tool call after a compaction once, naming the\nfiles to re-read; a Read of one of them passes.",
  "post-tool-use":
    "After tool calls: registers handler sessions, warns when ORCHESTRATION.yaml's\nresumption section goes stale.",
  stop:
    "When the agent stops: blocks once after a compaction if nothing was re-read\n(never while stop_hook_active is true).",
  "session-checkpoint":
    'After each turn, in the background ("async": true): saves the session\'s tasks, latest\nrequests and edited files, so that PreCompact reads the transcript back only to them.',
};

/**
 * The `--help` text of one hook binary.
 *
 * @example
 * ```ts
 * console.log(hookHelp("pre-compact"));
 * ```
 */
export function hookHelp(name: string): string {
  const event = HOOK_NAMES[name] ?? name;
  return [
    `${name} ${VERSION}: the rehydrate ${event} hook for Claude Code`,
    "",
    WHAT[name] ?? "",
    "",
    "Usage:",
    `  ${name} < hook-input.json     run as Claude Code runs it: hook JSON on stdin`,
    `  ${name} --agent codex < …     run for the OpenAI Codex CLI (told from the input without it)`,
    `  ${name} -v, --version         print the version`,
    `  ${name} -h, --help            print this help`,
    "",
    `Register it under "${event}" with rehydrate install (.claude/settings.local.json;`,
    "--shared: .claude/settings.json, safe to commit; --agent codex: Codex's hooks.json).",
    "A hook never breaks the session: bad input or any error means exit 0 and no output;",
    "set REHYDRATE_DEBUG=1 to log why in the state directory's debug.log.",
    "",
  ].join("\n");
}
