// Shared by the reread_* and delivery_* tests: temporary homes and state
// directories, the captured hook payloads rewritten per test, and a runner
// that drives a handler through handleHook like the hook binaries do.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handleHook, type HookContext, type HookOutcome } from "../../lib/hook/handle_hook.ts";
import type { HookEventName, HookReply } from "../../lib/hook/hook_types.ts";

export const ROOT = join(import.meta.dirname!, "..", "..");
export const INPUTS = join(ROOT, "tests", "fixtures", "claude-code-2.1.197", "hook-inputs");
export const DISPATCH = join(ROOT, "tests", "fixtures", "dispatch");
export const PROJECT = join(DISPATCH, "project");

/** A captured payload with fields replaced. */
export function payload(file: string, patch: Record<string, unknown> = {}): string {
  const base = JSON.parse(readFileSync(join(INPUTS, file), "utf8"));
  return JSON.stringify({ ...base, ...patch });
}

/** A fresh state directory and home, and the environment a hook would see. */
export function sandbox(
  extraEnv: Record<string, string> = {},
): { state: string; home: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-reread-"));
  const state = join(root, "state");
  const home = join(root, "home");
  return { state, home, env: { REHYDRATE_STATE_DIR: state, HOME: home, CLAUDE_PROJECT_DIR: PROJECT, ...extraEnv } };
}

/** Runs `fn` as the handler of `event` on `stdin`; returns the outcome and what `fn` returned. */
export async function run<E extends HookEventName, T>(
  event: E,
  fn: (ctx: HookContext<E>) => T,
  stdin: string,
  env: Record<string, string>,
  options: { now?: Date; reply?: (value: T) => HookReply } = {},
): Promise<{ outcome: HookOutcome; value: T | undefined }> {
  let value: T | undefined;
  const outcome = await handleHook(
    event,
    (ctx) => {
      value = fn(ctx);
      return options.reply ? options.reply(value) : null;
    },
    stdin,
    { env, now: options.now },
  );
  return { outcome, value };
}

/** The reply shape the lead's hooks use for a JSON answer. */
export function asJson(value: Record<string, unknown> | null): HookReply {
  return value ? { json: value } : null;
}
