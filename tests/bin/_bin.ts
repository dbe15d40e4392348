// Helpers for the binary tests: where dist/ is and how to run a binary the way Claude Code does.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname!, "..", "..");
/** Where the binaries are: dist/, or REHYDRATE_TEST_DIST so that parallel work can test its own build. */
export const DIST = process.env.REHYDRATE_TEST_DIST || join(ROOT, "dist");
export const EXE = process.platform === "win32" ? ".exe" : "";
export const HOOKS = [
  "pre-compact",
  "post-compact",
  "session-start",
  "user-prompt-submit",
  "pre-tool-use",
  "post-tool-use",
  "stop",
  "session-checkpoint",
  "post-model-switch",
];
export const BINARIES = [...HOOKS, "rehydrate"];
/** Hook inputs and transcripts captured from the pinned current client (tests/fixtures/SOURCES.md). */
export const FIXTURES = join(ROOT, "tests", "fixtures", "claude-code-2.1.332");
/** The same from the oldest client rehydrate supports: its inputs must keep working. */
export const FIXTURES_OLDEST = join(ROOT, "tests", "fixtures", "claude-code-2.1.197");

export function bin(name: string): string {
  const p = join(DIST, name + EXE);
  if (!existsSync(p)) throw new Error(`${p} is missing: run bun build.ts first`);
  return p;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns a binary, writes `stdin`, closes it, and reads stdout to EOF. */
export function run(
  path: string,
  args: string[],
  options: { stdin?: string; cwd?: string; env?: Record<string, string | undefined> } = {},
): RunResult {
  const r = spawnSync(path, args, {
    input: options.stdin ?? "",
    cwd: options.cwd,
    env: (options.env ?? process.env) as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}
