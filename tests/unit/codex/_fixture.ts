// The Codex 0.171.0 capture (tests/fixtures/codex-0.171.0) copied into a temporary project, the
// captured paths pointed at it: a rollout named as Codex names them, the project with the files
// the session edited, and each hook input with its transcript_path and cwd rewritten.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CODEX_FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures", "codex-0.171.0");
export const EVERYDAY = join(import.meta.dirname!, "..", "..", "..", "examples", "everyday");
/** The thread of the capture. */
export const THREAD = "01a222c4-6243-7060-8f21-44b920cd762f";
const CAPTURED_PROJECT = "/home/dev/work/demo-proj";

/** A copy of the capture in a temporary directory. */
export interface CodexCopy {
  dir: string;
  project: string;
  /** The environment for handleHook: HOME, CODEX_HOME and the state directory inside `dir`. */
  env: Record<string, string>;
  /**
   * Copies `rel` (a rollout or a snapshot of the capture) to a rollout path of this copy (`at`, to
   * grow the same file as the client does; default a new one); returns the path.
   */
  rollout(rel: string, at?: string): string;
  /** The hook input `name` (hook-inputs/), its paths this copy's, its transcript `rollout`. */
  input(name: string, rollout: string, extra?: Record<string, unknown>): string;
}

/** The whole rollout of the capture's thread, relative to the fixture folder. */
export function threadRollout(): string {
  const name = readdirSync(join(CODEX_FIXTURES, "rollouts")).find((n) => n.endsWith(`${THREAD}.jsonl`));
  if (name === undefined) throw new Error("the capture's rollout is missing");
  return join("rollouts", name);
}

/** Copies the capture: `made` collects the directory for the caller's cleanup. */
export function codexCopy(made: string[]): CodexCopy {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-codex-"));
  made.push(dir);
  const project = join(dir, "demo-proj");
  cpSync(EVERYDAY, project, { recursive: true });
  writeFileSync(join(project, "test", "cents.test.js"), 'import { test } from "node:test";\n');
  const codexHome = join(dir, ".codex");
  const sessions = join(codexHome, "sessions", "2026", "11", "28");
  mkdirSync(sessions, { recursive: true });
  let n = 0;
  return {
    dir,
    project,
    env: { HOME: dir, CODEX_HOME: codexHome, REHYDRATE_STATE_DIR: join(dir, "state"), REHYDRATE_DEBUG: "1" },
    rollout(rel: string, at?: string): string {
      const path = at ??
        join(sessions, `rollout-2026-11-28T15-12-${String(10 + n++).padStart(2, "0")}-${THREAD}.jsonl`);
      writeFileSync(path, readFileSync(join(CODEX_FIXTURES, rel), "utf8").replaceAll(CAPTURED_PROJECT, project));
      return path;
    },
    input(name: string, rollout: string, extra: Record<string, unknown> = {}): string {
      const value = JSON.parse(readFileSync(join(CODEX_FIXTURES, "hook-inputs", name), "utf8"));
      return JSON.stringify({ ...value, transcript_path: rollout, cwd: project, ...extra });
    },
  };
}
