import { statSync } from "../node/fs.ts";
import { basename, join, resolve } from "../node/path.ts";
import type { CliIo } from "./main.ts";
import { contextFill } from "../transcript/context_fill.ts";
import { sessionKey } from "../state/session_key.ts";
import { stateDir } from "../state/state_dir.ts";
import {
  detectWorkflows,
  projectConfig,
  readOptions,
  resolveEnv,
  type VerbEnv,
  type WorkflowFinding,
} from "./_install_detect.ts";
import { checkpointFiles, newestTranscript, readJson, safeList } from "./_doctor_files.ts";

/** What `rehydrate status --json` prints. */
export interface StatusReport {
  project: string;
  workflows: WorkflowFinding[];
  /** The flat precompact_state.json: the last detection, or null when there is none. */
  lastDetection: {
    file: string;
    activeProjectId: string | null;
    confidence: string | null;
    method: string | null;
    timestamp: string | null;
  } | null;
  /** Orchestration checkpoints not acknowledged yet. */
  pendingCheckpoints: { file: string; id: string; createdAt: string | null }[];
  /** One-shot re-read markers waiting in the state directory. */
  pendingMarkers: { file: string; sessionId: string | null; createdAt: string | null; files: number }[];
  /** The newest session of the project, or null when there is no transcript. */
  latestSession: {
    transcript: string;
    sessionId: string;
    model: string | null;
    tokens: number;
    window: number;
    percent: number;
    source: string;
  } | null;
}

const HELP = `Usage: rehydrate status [--project DIR] [--json]

What rehydrate knows about a project right now: the workflows detected, the
last detection PreCompact saved (active project and confidence), checkpoints
not acknowledged yet, re-read markers waiting, and how full the context window
of the newest session is.

Options:
  --project DIR   the project (default: the current directory)
  --json          print it as JSON
  -h, --help      show this help

Examples:
  rehydrate status
  rehydrate status --project ~/work/site --json
`;

/**
 * `rehydrate status`: prints the detected workflows, the last detection and its confidence, the
 * pending (unacknowledged) checkpoints, the pending re-read markers and the context fill of the
 * newest session. Reads only; returns 0, or 2 on a usage error.
 *
 * @example
 * ```ts
 * const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) };
 * const code = cliStatus(["--json"], io);
 * ```
 */
export function cliStatus(args: string[], io: CliIo, options: VerbEnv = {}): number {
  if (args.includes("-h") || args.includes("--help")) {
    io.out(HELP);
    return 0;
  }
  const opts = readOptions(args, { flags: ["--json"], values: ["--project"] });
  if (opts.error) {
    io.err(`rehydrate status: ${opts.error}; run rehydrate status --help\n`);
    return 2;
  }
  const env = resolveEnv(options);
  const projectDir = resolve(env.cwd, opts.values.get("--project") ?? ".");
  if (!isDir(projectDir)) {
    io.err(`rehydrate status: no directory ${projectDir}; pass --project DIR\n`);
    return 2;
  }
  const loaded = projectConfig(projectDir, env);
  const config = loaded.config;
  const report: StatusReport = {
    project: projectDir,
    workflows: detectWorkflows(projectDir, loaded),
    lastDetection: null,
    pendingCheckpoints: [],
    pendingMarkers: [],
    latestSession: null,
  };

  const stateFile = join(projectDir, config.projects.stateFile);
  const state = record(readJson(stateFile));
  if (state) {
    report.lastDetection = {
      file: stateFile,
      activeProjectId: str(state.active_project_id),
      confidence: str(state.confidence),
      method: str(state.detection_method),
      timestamp: str(state.timestamp),
    };
  }
  for (const file of checkpointFiles(join(projectDir, config.orchestration.stateDir, "checkpoints"))) {
    const cp = record(readJson(file));
    if (cp && cp.acknowledged !== true) {
      report.pendingCheckpoints.push({
        file,
        id: str(cp.checkpoint_id) ?? basename(file),
        createdAt: str(cp.created_at),
      });
    }
  }
  const dir = stateDir({ env: env.env, homeDir: env.homeDir, platform: env.platform, configured: config.stateDir });
  for (const name of safeList(join(dir, "markers"))) {
    if (!name.endsWith(".json")) continue;
    const file = join(dir, "markers", name);
    const m = record(readJson(file, 256 * 1024));
    report.pendingMarkers.push({
      file,
      sessionId: m ? str(m.session_id) : null,
      createdAt: m ? str(m.created_at) : null,
      files: m && Array.isArray(m.files) ? m.files.length : 0,
    });
  }
  const transcript = newestTranscript(projectDir, env.homeDir, env.env);
  if ("path" in transcript) {
    const sessionId = basename(transcript.path).replace(/\.jsonl$/, "");
    const key = sessionKey(sessionId);
    const rec = key ? record(readJson(join(dir, "sessions", `${key}.json`), 1024 * 1024)) : null;
    const model = rec ? str(rec.model) : null;
    const fill = contextFill(transcript.path, {
      model: model ?? undefined,
      windowTokens: config.contextWindow.tokens ?? undefined,
      budgetBytes: config.transcript.scanBudgetBytes,
    });
    report.latestSession = {
      transcript: transcript.path,
      sessionId,
      model: model ?? fill.model ?? null,
      tokens: fill.tokens,
      window: fill.window,
      percent: Math.round(fill.fraction * 1000) / 10,
      source: fill.source,
    };
  }

  if (opts.flags.has("--json")) {
    io.out(JSON.stringify(report, null, 2) + "\n");
    return 0;
  }
  io.out(`Project: ${projectDir}\n`);
  io.out("Workflows:\n");
  for (const f of report.workflows) io.out(`  ${f.workflow.padEnd(14)} ${f.used ? "yes" : "no "}  ${f.evidence}\n`);
  const d = report.lastDetection;
  io.out(
    d
      ? `Last detection: ${d.activeProjectId ?? "no project"} (confidence ${d.confidence ?? "?"}, by ${
        d.method ?? "?"
      }, ${d.timestamp ?? "no time"})\n`
      : "Last detection: none yet\n",
  );
  io.out(
    `Pending checkpoints: ${
      report.pendingCheckpoints.length === 0
        ? "none"
        : report.pendingCheckpoints.map((c) => `${c.id} (${c.createdAt ?? "?"})`).join(", ") +
          "; rehydrate ack acknowledges them"
    }\n`,
  );
  io.out(
    `Pending re-read markers: ${
      report.pendingMarkers.length === 0
        ? "none"
        : report.pendingMarkers.map((m) =>
          `${m.sessionId ?? basename(m.file)} (${m.files} files, ${m.createdAt ?? "?"})`
        ).join(", ")
    }\n`,
  );
  const s = report.latestSession;
  io.out(
    s
      ? `Latest session: ${s.sessionId}: ${s.tokens} of ${s.window} tokens (${s.percent}%)${
        s.model ? `, model ${s.model}` : ""
      }${s.source === "none" ? ", no usage yet" : ""}\n`
      : "Latest session: no transcript for this project yet\n",
  );
  return 0;
}

function record(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : null;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
