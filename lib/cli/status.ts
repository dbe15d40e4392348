import { basename, join } from "../node/path.ts";
import type { CliIo } from "./main.ts";
import { contextFill } from "../transcript/context_fill.ts";
import { sessionKey } from "../state/session_key.ts";
import { stateDir } from "../state/state_dir.ts";
import {
  detectWorkflows,
  isDir,
  projectConfig,
  readOptions,
  resolveEnv,
  settingsPath,
  type VerbEnv,
  type WorkflowFinding,
} from "./_install_detect.ts";
import { listOurEntries } from "./_install_plan.ts";
import { readSettings } from "./_install_settings_file.ts";
import { asksHelp, failure, usageError } from "./_usage.ts";
import { projectRoot, rootLine } from "./_project_root.ts";
import {
  checkpointFiles,
  newestTranscript,
  readJson,
  readProjectJson,
  safeList,
  transcriptDir,
} from "./_doctor_files.ts";
import { currentSessionSnapshot } from "../session/current_snapshot.ts";
import { renderSessionElement } from "../session/session_element.ts";
import { sessionMark } from "../session/session_mark.ts";
import { isOpenTask } from "../session/tasks.ts";
import { containedPath, outsideLine } from "./_contained.ts";
import { offLine } from "./_off_line.ts";
import { readRestoreRecords, type RestorePart, type RestoreRecord } from "../delivery/restore_record.ts";

/** What `rehydrate status --json` prints. */
export interface StatusReport {
  project: string;
  /** False when the config turns rehydrate off (`"enabled": false`): the hooks do nothing. */
  enabled: boolean;
  /** The config file that turned it off, when it is off. */
  offBy: string | null;
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
  /** One-shot re-read markers waiting in the state directory, of this project's sessions only. */
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
  /**
   * Where the hooks are registered: the project's local and shared settings files and the user's,
   * each with the `Event:hook` entries of ours it holds (none when it has none or cannot be read).
   */
  installed: { scope: "local" | "shared" | "user"; file: string; hooks: string[]; error: string | null }[];
  /** False when the config turns the everyday layer off (`session.enabled: false`). */
  sessionLayer: boolean;
  /**
   * The everyday `<session-context>` the latest session would get after its next compaction,
   * rendered from its saved snapshot or one built now from the transcript (never saved), or null
   * when there is no transcript or the everyday layer is off. The workflows' own context comes on top of it.
   */
  nextCompaction: {
    /** The element, "" when the session holds nothing to say. */
    element: string;
    /** Its budget: `budget.maxChars`, or 3,000 beside a project workspace. */
    maxChars: number;
    /** True when built now from the transcript; false when PreCompact's saved snapshot is current. */
    rebuilt: boolean;
    /** What the first prompt after it may add, when the summary lacks them. */
    openTasks: number;
    userRequests: number;
    editedFiles: number;
    /** The build, test and lint commands in the element. */
    commands: number;
    /** The plan file it points at, or null. */
    planFile: string | null;
  } | null;
  /**
   * The project's last compactions, newest first (at most 10, from the state directory's restore
   * records): when, how, and what was given back, without the texts (`--last` prints the newest's).
   */
  compactions: {
    compactionId: string;
    sessionId: string;
    trigger: "manual" | "auto" | null;
    compactedAt: string;
    /** Right after the compaction; null when it was never delivered. */
    delivered: RestoreSummary | null;
    /** At the first prompt after it; null when that prompt has not come (or the layer is off). */
    followUp: RestoreSummary | null;
  }[];
  /**
   * Folders and files of the project that resolve outside it (a symbolic link on the way), as the
   * config names them: not read (rule 2 of SECURITY.md), so nothing of theirs is shown.
   */
  refused: string[];
}

/** One part of a restore record as status shows it: everything but the text. */
export type RestoreSummary = Omit<RestorePart, "text">;

/** The everyday element's share beside a project workspace (as SessionStart gives it). */
const SESSION_SHARE = 3000;

const HELP = `Usage: rehydrate status [--project DIR] [--json] [--verbose] [--last]

What rehydrate knows about a project right now: where its hooks are registered
(the project's local and shared settings, the user's), the workflows detected,
the project's last compactions (when, manual or auto, what came back, how many
characters, and whether it arrived), checkpoints not acknowledged yet, the
re-read markers of this project's sessions still waiting, how full the context
window of the newest session is, and what the agent would get after its next
compaction (the <session-context> element; nothing is written). A state file
or checkpoints folder that links out of the project is named, not read.

With --last it prints only the exact text the model got after the project's
last compaction (and, after a blank line, what the first prompt added).

Options:
  --project DIR   the project (default: the nearest folder upward with a
                  .claude/ folder or .git, else the current directory)
  --json          print it as JSON (with the element)
  --verbose       also print the <session-context> element
  --last          print what the model got after the last compaction
  -h, --help      show this help
  -v, --version   print the version

Examples:
  rehydrate status
  rehydrate status --project ~/work/site --json
  rehydrate status --verbose
  rehydrate status --last
`;

/**
 * `rehydrate status`: prints the detected workflows, the last detection and its confidence, the
 * pending (unacknowledged) checkpoints, the pending re-read markers, the context fill of the
 * newest session and the `<session-context>` it would get after its next compaction (with
 * `--verbose`, the element itself), and where the hooks are registered. Reads only, never writes
 * state; returns 0, 1 when the project is no directory, 2 on a usage error.
 *
 * @example
 * ```ts
 * const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) };
 * const code = cliStatus(["--json"], io);
 * ```
 */
export function cliStatus(args: string[], io: CliIo, options: VerbEnv = {}): number {
  if (asksHelp(args)) {
    io.out(HELP);
    return 0;
  }
  const opts = readOptions(args, { flags: ["--json", "--verbose", "--last"], values: ["--project"] });
  if (opts.error) return usageError(io, "status", opts.error);
  const env = resolveEnv(options);
  const found = projectRoot(env, opts.values.get("--project"));
  const projectDir = found.dir;
  if (!isDir(projectDir)) return failure(io, "status", `no directory ${projectDir}; pass --project DIR`);
  const loaded = projectConfig(projectDir, env);
  const config = loaded.config;
  const dir = stateDir({ env: env.env, homeDir: env.homeDir, platform: env.platform, configured: config.stateDir });
  const restores = readRestoreRecords(dir, projectDir);
  if (opts.flags.has("--last")) return printLast(io, restores[0], projectDir, opts.flags.has("--json"));
  const report: StatusReport = {
    project: projectDir,
    enabled: config.enabled !== false,
    offBy: config.enabled === false ? loaded.origins.enabled ?? null : null,
    workflows: detectWorkflows(projectDir, loaded),
    lastDetection: null,
    pendingCheckpoints: [],
    pendingMarkers: [],
    latestSession: null,
    installed: installedHooks(projectDir, env.homeDir),
    sessionLayer: config.session.enabled !== false,
    nextCompaction: null,
    compactions: restores.map((r) => ({
      compactionId: r.compaction_id,
      sessionId: r.session_id,
      trigger: r.trigger ?? null,
      compactedAt: r.compacted_at,
      delivered: r.delivered && withoutText(r.delivered),
      followUp: r.follow_up && withoutText(r.follow_up),
    })),
    refused: [],
  };

  // Rule 2 of SECURITY.md: the project's files are read through their checked real paths only; a
  // linked 00-system or .jerry that leads out of the project is named, never read.
  const stateFile = join(projectDir, config.projects.stateFile);
  const stateAt = containedPath(projectDir, stateFile);
  if (stateAt.kind === "outside") report.refused.push(config.projects.stateFile);
  const state = stateAt.kind === "inside" ? record(readProjectJson(projectDir, stateAt.real)) : null;
  if (state) {
    report.lastDetection = {
      file: stateFile,
      activeProjectId: str(state.active_project_id),
      confidence: str(state.confidence),
      method: str(state.detection_method),
      timestamp: str(state.timestamp),
    };
  }
  const checkpointsDir = join(projectDir, config.orchestration.stateDir, "checkpoints");
  const checkpointsAt = containedPath(projectDir, checkpointsDir);
  if (checkpointsAt.kind === "outside") report.refused.push(`${config.orchestration.stateDir}/checkpoints`);
  const checkpoints = checkpointsAt.kind === "inside" ? checkpointFiles(checkpointsDir) : [];
  for (const file of checkpoints) {
    const at = containedPath(projectDir, file);
    if (at.kind === "outside") report.refused.push(`${config.orchestration.stateDir}/checkpoints/${basename(file)}`);
    const cp = at.kind === "inside" ? record(readProjectJson(projectDir, at.real)) : null;
    if (cp && cp.acknowledged !== true) {
      report.pendingCheckpoints.push({
        file,
        id: str(cp.checkpoint_id) ?? basename(file),
        createdAt: str(cp.created_at),
      });
    }
  }
  // This project's sessions only: those whose transcript Claude Code keeps under this project
  // (the state directory holds every project's markers; issue #36, I5).
  const sessions = new Set<string>();
  for (const name of safeList(transcriptDir(projectDir, env.homeDir, env.env))) {
    const key = name.endsWith(".jsonl") ? sessionKey(name.slice(0, -".jsonl".length)) : null;
    if (key !== null) sessions.add(`${key}.json`);
  }
  for (const name of safeList(join(dir, "markers"))) {
    if (!sessions.has(name)) continue;
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
  if ("path" in transcript && report.latestSession && report.sessionLayer) {
    const sessionId = report.latestSession.sessionId;
    const maxChars = Math.min(
      config.budget.maxChars,
      10_000,
      report.workflows.some((f) => f.workflow === "projects" && f.used) ? SESSION_SHARE : Infinity,
    );
    const current = currentSessionSnapshot(dir, transcript.path, {
      sessionId,
      cwd: projectDir,
      budgetBytes: config.transcript.scanBudgetBytes,
      userRequests: config.session.userRequests,
      save: false,
    });
    const snap = current.snapshot;
    report.nextCompaction = {
      // The session's mark when it has one; status writes none.
      element: renderSessionElement(snap, { maxChars, mark: sessionMark(dir, sessionId) }),
      maxChars,
      rebuilt: current.rebuilt,
      openTasks: snap.tasks.filter(isOpenTask).length,
      userRequests: snap.user_requests.length,
      editedFiles: snap.edited_files_total,
      commands: snap.commands?.length ?? 0,
      planFile: snap.plan_file ?? null,
    };
  }

  if (opts.flags.has("--json")) {
    io.out(JSON.stringify(report, null, 2) + "\n");
    return 0;
  }
  io.out(`${rootLine(found, env.cwd) ?? `Project: ${projectDir}`}\n`);
  if (!report.enabled) io.out(`${offLine(report.offBy)}\n`);
  const where = report.installed.filter((i) => i.hooks.length > 0 || i.error);
  io.out(
    `Hooks: ${
      where.length === 0
        ? `not registered in ${report.installed.map((i) => i.file).join(", ")}; rehydrate install registers them`
        : where.map((i) => `${i.file} (${i.scope}): ${i.error ?? i.hooks.join(", ")}`).join("; ")
    }\n`,
  );
  if (report.refused.length > 0) io.out(`${outsideLine(report.refused)}\n`);
  io.out("Workflows:\n");
  for (const f of report.workflows) io.out(`  ${f.workflow.padEnd(14)} ${f.used ? "yes" : "no "}  ${f.evidence}\n`);
  printCompactions(io, report.compactions);
  // The project workspace's detection, where there is one: in any other repository it never
  // happens, and "none yet" read as if rehydrate had forgotten a compaction.
  const d = report.lastDetection;
  if (d) {
    io.out(
      `Last detection: ${d.activeProjectId ?? "no project"} (confidence ${d.confidence ?? "?"}, by ${
        d.method ?? "?"
      }, ${d.timestamp ?? "no time"})\n`,
    );
  } else if (report.workflows.some((f) => f.workflow === "projects" && f.used)) {
    io.out("Last detection: none yet\n");
  }
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
  const n = report.nextCompaction;
  if (!report.sessionLayer) {
    io.out("After the next compaction: no <session-context>, the everyday layer is off (session.enabled: false)\n");
  } else if (n) {
    io.out(
      n.element
        ? `After the next compaction: <session-context> of ${n.element.length} characters (the latest request, ${
          count(n.commands, "command")
        }${n.planFile ? ", the plan file" : ""}; ${
          n.rebuilt ? "built now from the transcript" : "from PreCompact's snapshot"
        }), then at the first prompt what the summary lacks of ${count(n.openTasks, "open task")}, ${
          count(Math.max(0, n.userRequests - 1), "earlier request")
        } and ${count(n.editedFiles, "edited file")}${opts.flags.has("--verbose") ? ":" : "; --verbose prints it"}\n`
        : "After the next compaction: no <session-context>, the session holds no request or command yet\n",
    );
    if (n.element && opts.flags.has("--verbose")) io.out(n.element + "\n");
  }
  return 0;
}

/** The project's last compactions, one line each, newest first. */
function printCompactions(io: CliIo, list: StatusReport["compactions"]): void {
  if (list.length === 0) {
    io.out("Last compactions: none of this project on record yet\n");
    return;
  }
  io.out("Last compactions (newest first; rehydrate status --last prints what the model got):\n");
  for (const c of list) {
    const d = c.delivered;
    const got = d === null
      ? "not delivered"
      : d.chars === 0
      ? `nothing to give back (${HOOK_LABEL[d.by]})`
      : `${d.chars} characters by ${HOOK_LABEL[d.by]}: ${d.summary}`;
    const f = c.followUp;
    const then = f === null || f.chars === 0 ? "" : `; then ${f.chars} characters at the next prompt: ${f.summary}`;
    io.out(`  ${when(c.compactedAt)} ${c.trigger ?? "compaction"}: ${got}${then}\n`);
  }
}

const HOOK_LABEL: Record<RestorePart["by"], string> = {
  "session-start": "SessionStart",
  "user-prompt-submit": "the next prompt (SessionStart's never arrived)",
};

/** `2026-11-25 15:55:14 UTC` */
function when(iso: string): string {
  return iso.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC");
}

function withoutText(p: RestorePart): RestoreSummary {
  const { text: _text, ...rest } = p;
  return rest;
}

/** `--last`: the exact text the model got after the last compaction, then what the first prompt added. */
function printLast(io: CliIo, last: RestoreRecord | undefined, projectDir: string, json: boolean): number {
  if (json) {
    io.out(JSON.stringify(last ?? null, null, 2) + "\n");
    return 0;
  }
  if (last === undefined) {
    io.out(`No compaction of ${projectDir} on record yet (rehydrate keeps the last 10 of a project)\n`);
    return 0;
  }
  const at = `${when(last.compacted_at)}, ${last.trigger ?? "compaction"}`;
  if (last.delivered === null) {
    io.out(`The last compaction (${at}) has not been given back yet: it comes with SessionStart or the next prompt\n`);
    return 0;
  }
  if (last.delivered.text === "") {
    io.out(`After the last compaction (${at}) rehydrate had nothing to give back\n`);
    return 0;
  }
  io.out(last.delivered.text.endsWith("\n") ? last.delivered.text : last.delivered.text + "\n");
  if (last.follow_up !== null && last.follow_up.text !== "") io.out(`\n${last.follow_up.text}\n`);
  return 0;
}

/** Our entries in each settings file Claude Code reads for this project. */
function installedHooks(projectDir: string, homeDir: string): StatusReport["installed"] {
  return (["local", "shared", "user"] as const).map((scope) => {
    const file = settingsPath(scope, { projectDir, homeDir });
    const read = readSettings(file, { root: scope === "user" ? undefined : projectDir });
    if ("error" in read) return { scope, file, hooks: [], error: read.error };
    const listed = listOurEntries(read.text);
    if ("error" in listed) {
      return { scope, file, hooks: [], error: `${listed.error.line}:${listed.error.column}: ${listed.error.message}` };
    }
    return { scope, file, hooks: listed.entries.map((e) => `${e.event}:${e.hook}`), error: null };
  });
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function record(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : null;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
