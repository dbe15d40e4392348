import type { CliIo } from "./main.ts";
import { findOrchestrationLayout } from "../orchestration/layout.ts";
import { isUnacknowledged, listCheckpoints } from "../orchestration/checkpoints.ts";
import { orchPaths } from "../orchestration/paths.ts";
import { parseOrchCliArgs } from "./_orchestration.ts";
import { resumePromptFor, runOfCheckpoint } from "../orchestration/resume.ts";

const HELP = `rehydrate resume-prompt: print the prompt that resumes an interrupted orchestration run

Usage:
  rehydrate resume-prompt [--project DIR]

Prints Template 1 of the orchestration design (at most 1,000 tokens), filled in from the
resumption section of <projectsDir>/<run>/ORCHESTRATION.yaml and the run's newest checkpoint.
Paste it as the first message of a new session. With several runs, the run of the newest
unacknowledged checkpoint is used, else the most recently modified ORCHESTRATION.yaml.
SessionStart injects the same prompt by itself when a checkpoint is unacknowledged.

Options:
  --project DIR   the workspace (default: $CLAUDE_PROJECT_DIR, else the current directory)
  -h, --help      show this help

Examples:
  rehydrate resume-prompt
  rehydrate resume-prompt --project ~/work/oss-release | pbcopy
`;

/**
 * The `rehydrate resume-prompt [--project DIR]` verb: prints the resumption prompt for the
 * workspace's run. Returns 0, or 1 with a one-line error when the arguments are bad or the
 * workspace has no `<projectsDir>/*\/ORCHESTRATION.yaml`.
 *
 * @example
 * ```ts
 * import { cliResumePrompt } from "./resume_prompt.ts";
 *
 * const code = cliResumePrompt([], { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
 * ```
 */
export function cliResumePrompt(args: string[], io: CliIo): number {
  const parsed = parseOrchCliArgs(args, process.env);
  if ("error" in parsed) {
    io.err(`rehydrate resume-prompt: ${parsed.error}; run rehydrate resume-prompt --help\n`);
    return 1;
  }
  if (parsed.help) {
    io.out(HELP);
    return 0;
  }
  const layout = findOrchestrationLayout(parsed.projectDir, { projectsDir: parsed.settings.projectsDir });
  if (layout === null) {
    io.err(`rehydrate resume-prompt: no ${parsed.settings.projectsDir}/*/ORCHESTRATION.yaml in ${parsed.projectDir}\n`);
    return 1;
  }
  const entries = listCheckpoints(orchPaths(parsed.projectDir, parsed.settings).checkpointsDir);
  const unacked = entries.filter(isUnacknowledged);
  const run = runOfCheckpoint(layout.runs, unacked[unacked.length - 1]) ?? layout.active;
  io.out(resumePromptFor(parsed.projectDir, run, entries) + "\n");
  return 0;
}
