/**
 * Private helper of `rehydrate doctor`: how long each installed hook takes on this machine.
 * Whole processes, as Claude Code runs them (spawn, JSON on stdin, read stdout to EOF), a few
 * runs each interleaved with a floor (the same binary's `--version`, the cost of starting it at
 * all), medians reported. Hooks run in a scratch project and state directory, so measuring
 * never writes a checkpoint or marker into the user's project.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "../node/fs.ts";
import { tmpdir } from "node:os";
import { join } from "../node/path.ts";
import { HOOK_NAMES } from "../hook/hook_names.ts";

/** One hook's timing. */
export interface HookLatency {
  hook: string;
  binary: string;
  /** Median wall time of the hook, ms. */
  medianMs: number;
  /** Median wall time of `<binary> --version`, ms. */
  floorMs: number;
  /** Runs counted per command. */
  runs: number;
  /** Exit codes other than 0 seen, or a spawn error. */
  problem: string | null;
}

const SESSION = "00000000-0000-4000-8000-00000000d0c7";

/** A realistic stdin for a hook (the fields Claude Code 2.1 sends). */
export function samplePayload(hook: string, cwd: string, transcriptPath: string): string {
  const event = HOOK_NAMES[hook];
  const base = { session_id: SESSION, transcript_path: transcriptPath, cwd, hook_event_name: event };
  const extra: Record<string, Record<string, unknown>> = {
    PreCompact: { trigger: "manual", custom_instructions: null },
    PostCompact: { trigger: "manual", compact_summary: "The user asked for a refactor of the parser; tests pass." },
    SessionStart: { source: "startup", model: "claude-opus-4-6" },
    UserPromptSubmit: { prompt: "Carry on with the next step", permission_mode: "default" },
    PreToolUse: {
      tool_name: "Read",
      tool_input: { file_path: join(cwd, "README.md") },
      tool_use_id: "toolu_doctor",
      permission_mode: "default",
    },
    PostToolUse: {
      tool_name: "Edit",
      tool_input: { file_path: join(cwd, "notes.md"), old_string: "a", new_string: "b" },
      tool_response: { filePath: join(cwd, "notes.md"), oldString: "a", newString: "b" },
      tool_use_id: "toolu_doctor",
      permission_mode: "default",
    },
    Stop: { stop_hook_active: false, last_assistant_message: "Done." },
  };
  return JSON.stringify({ ...base, ...(extra[event] ?? {}) }) + "\n";
}

/**
 * Times each `{hook, binary}` `runs` times (after one warm-up), interleaved with the binary's
 * floor. `transcriptPath` is passed to the hooks as-is (read-only for them).
 */
export function measureHooks(
  targets: readonly { hook: string; binary: string }[],
  options: { runs?: number; transcriptPath?: string; env?: Record<string, string | undefined> } = {},
): HookLatency[] {
  const runs = Math.max(1, options.runs ?? 5);
  const scratch = mkdtempSync(join(tmpdir(), "rehydrate-doctor-"));
  const project = join(scratch, "project");
  mkdirSync(project, { recursive: true });
  const env = {
    ...(options.env ?? process.env),
    CLAUDE_PROJECT_DIR: project,
    REHYDRATE_STATE_DIR: join(scratch, "state"),
    REHYDRATE_DEBUG: "",
  };
  const out: HookLatency[] = [];
  try {
    for (const { hook, binary } of targets) {
      const stdin = samplePayload(hook, project, options.transcriptPath ?? "");
      const hookTimes: number[] = [];
      const floorTimes: number[] = [];
      let problem: string | null = null;
      for (let i = 0; i <= runs; i++) {
        const f = time(binary, ["--version"], "", project, env);
        const h = time(binary, [hook], stdin, project, env);
        if (h.problem && problem === null) problem = h.problem;
        if (f.problem && problem === null) problem = `--version: ${f.problem}`;
        if (i === 0) continue; // warm-up: page cache, not the hook
        floorTimes.push(f.ms);
        hookTimes.push(h.ms);
      }
      out.push({ hook, binary, medianMs: median(hookTimes), floorMs: median(floorTimes), runs, problem });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return out;
}

function time(
  binary: string,
  args: string[],
  input: string,
  cwd: string,
  env: Record<string, string | undefined>,
): { ms: number; problem: string | null } {
  const start = process.hrtime.bigint();
  const r = spawnSync(binary, args, {
    input,
    cwd,
    env: env as Record<string, string>,
    timeout: 30_000,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) return { ms, problem: `cannot run: ${(r.error as { code?: string }).code ?? r.error.message}` };
  if (r.status !== 0) return { ms, problem: `exit ${r.status ?? r.signal}` };
  // A hook writes nothing on stderr. The one binary's dispatcher does when it cannot load a hook's
  // code: the hook then exits 0 having done nothing, which only this line tells apart.
  const said = String(r.stderr ?? "").trim().split(/\r?\n/)[0];
  if (said) return { ms, problem: `stderr: ${said.slice(0, 200)}` };
  return { ms, problem: null };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
