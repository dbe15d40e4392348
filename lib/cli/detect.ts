import { statSync } from "../node/fs.ts";
import { parseArgs } from "node:util";
import { detectWorkspace, type WorkspaceDetection } from "../detect/workspace.ts";
import { loadConfig } from "../config/load_config.ts";
import { asksHelp, failure, usageError } from "./_usage.ts";
import { newestTranscript } from "./_doctor_files.ts";
import { resolveEnv, type VerbEnv } from "./_install_detect.ts";
import { projectRoot } from "./_project_root.ts";

const HELP = `rehydrate detect: show what PreCompact would save for a transcript, writing nothing

Usage:
  rehydrate detect [--transcript FILE] [--project DIR] [--json]

Options:
  -t, --transcript FILE   the session transcript (JSONL), e.g. ~/.claude/projects/<dir>/<session>.jsonl;
                          default: the newest session of the project (found from the current
                          directory upward: its .claude/ folder or .git), which is then --project
  -p, --project DIR       the workspace: reads its .claude/rehydrate.json (projects.root,
                          projects.workingSetSize, transcript.scanBudgetBytes), lists its projects,
                          and shows paths inside it relative to it
      --json              print the detection as JSON
  -h, --help              show this help
  -v, --version           print the version

Examples:
  rehydrate detect
  rehydrate detect -t ~/.claude/projects/-home-me-ws/0b7e5c1a.jsonl
  rehydrate detect -t session.jsonl -p ~/ws --json | jq .activeProject
`;

/** Where the verb writes; the CLI passes stdout and stderr, tests pass collectors. */
export interface CliDetectIo {
  out(text: string): void;
  err(text: string): void;
}

/**
 * `rehydrate detect [--transcript FILE] [--project DIR] [--json]`: prints the active project (with
 * its confidence and evidence), the working set and the latest tool calls that PreCompact would
 * record for `FILE` (default: the newest session of the project found from the working directory
 * upward), without writing anything. Human-readable by default, JSON with `--json`.
 * A usage error (an unknown flag, an empty `--transcript`): one line and a hint on stderr, exit 2; an
 * unreadable transcript or project: one line on stderr, exit 1.
 *
 * @example
 * ```ts
 * import { cliDetect } from "./detect.ts";
 *
 * const code = cliDetect(["--transcript", "/tmp/session.jsonl", "--json"], {
 *   out: (t) => process.stdout.write(t),
 *   err: (t) => process.stderr.write(t),
 * });
 * process.exitCode = code;
 * ```
 */
export function cliDetect(args: string[], io: CliDetectIo, options: VerbEnv = {}): number {
  if (asksHelp(args)) {
    io.out(HELP);
    return 0;
  }
  let values: { transcript?: string; project?: string; json?: boolean; help?: boolean };
  try {
    values = parseArgs({
      args,
      options: {
        transcript: { type: "string", short: "t" },
        project: { type: "string", short: "p" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return usageError(io, "detect", error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  let transcript = values.transcript;
  let project = values.project;
  if (transcript === "") {
    return usageError(io, "detect", "empty --transcript: name a file, or leave it out for the newest session");
  }
  if (transcript === undefined) {
    // No transcript named: the newest session of the project found from here upward (issue #37).
    const env = resolveEnv(options);
    const root = projectRoot(env, project);
    const newest = newestTranscript(root.dir, env.homeDir, env.env);
    if ("missing" in newest) {
      return failure(io, "detect", `${newest.missing}; pass --transcript FILE`);
    }
    transcript = newest.path;
    project ??= root.dir;
    if (!values.json) io.out(`Transcript: ${transcript} (the newest session of ${root.dir})\n\n`);
  }
  try {
    if (!statSync(transcript).isFile()) {
      return failure(io, "detect", `cannot read the transcript: ${transcript} is not a file`);
    }
  } catch {
    return failure(io, "detect", `cannot read the transcript: ${transcript} does not exist`);
  }
  let detectOptions = {};
  if (project !== undefined) {
    try {
      if (!statSync(project).isDirectory()) throw new Error("not a directory");
    } catch {
      return failure(io, "detect", `no directory ${project}`);
    }
    const { config } = loadConfig(project, { homeDir: options.homeDir, env: options.env });
    detectOptions = {
      projectDir: project,
      projectsRoot: config.projects.root,
      workingSetSize: config.projects.workingSetSize,
      budgetBytes: config.transcript.scanBudgetBytes,
    };
  }
  const found = detectWorkspace(transcript, detectOptions);
  io.out(values.json ? JSON.stringify(found, null, 2) + "\n" : formatDetection(found));
  return 0;
}

function formatDetection(found: WorkspaceDetection): string {
  const lines: string[] = [];
  const p = found.activeProject;
  if (p === null) {
    lines.push("Active project: none detected");
  } else {
    lines.push(
      `Active project: ${p.id} (confidence ${p.confidence}, score ${p.score}, ${p.recentFileOps} recent file operations)`,
    );
    if (p.runnerUp) lines.push(`  runner-up: ${p.runnerUp.id} (score ${p.runnerUp.score})`);
    if (p.switchedToSkill) lines.push(`  switched afterwards to skill: ${p.switchedToSkill}`);
    lines.push("  evidence (newest first, age in tool calls):");
    for (const e of p.evidence) {
      lines.push(`    ${String(e.age).padStart(4)}  ${e.kind.padEnd(7)} ${e.source.padEnd(12)} ${e.detail}`);
    }
  }
  lines.push("", found.workingSet.length === 0 ? "Working set: empty" : "Working set (best first):");
  for (const item of found.workingSet) {
    lines.push(`  ${item.score.toFixed(2).padStart(6)}  ${item.path}  [${item.reasons.join(", ")}]`);
  }
  lines.push("", found.lastToolCalls.length === 0 ? "Last tool calls: none" : "Last tool calls (newest last):");
  for (const c of found.lastToolCalls) {
    lines.push(`  ${c.tool}${c.file ? " " + c.file : ""}${c.timestamp ? "  " + c.timestamp : ""}`);
  }
  lines.push(
    "",
    `Scanned ${found.bytesScanned} bytes, ${found.toolCallsScanned} tool calls${
      found.sessionId ? `, session ${found.sessionId}` : ""
    }.`,
  );
  return lines.join("\n") + "\n";
}
