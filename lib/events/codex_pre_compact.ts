import type { HookContext } from "../hook/handle_hook.ts";
import type { HookReply } from "../hook/hook_types.ts";
import { join } from "../node/path.ts";
import { newCompactionId } from "../state/new_compaction_id.ts";
import { sweepTempFiles } from "../state/sweep_temp_files.ts";
import { writeCompactionRecord } from "../delivery/compaction_record.ts";
import { buildCodexSnapshot } from "../session/codex_snapshot.ts";
import { sweepSessionSnapshots, writeSessionSnapshot } from "../session/snapshot_file.ts";
import { guard } from "./_guard.ts";

/**
 * PreCompact under the Codex CLI: the everyday layer saves the session snapshot from the
 * rollout (`buildCodexSnapshot`) and records the compaction for the once-only delivery. It prints
 * nothing: Codex gives PreCompact no say in the summary (its output cannot add context or
 * instructions), and SessionStart(compact), which runs after the summary is written, gives back
 * what it lacks. The workflows (project workspaces, orchestration runs, dispatch sessions) are
 * Claude Code's and do not run here. `session.enabled: false` turns it off.
 *
 * @example
 * ```ts
 * if (ctx.host === "codex") return codexPreCompact(ctx);
 * ```
 */
export function codexPreCompact(ctx: HookContext<"PreCompact">): HookReply {
  const input = ctx.input;
  const key = ctx.sessionKey;
  const config = ctx.config();
  if (key === null || config.session.enabled === false) return null;
  const trigger = input.trigger === "manual" || input.trigger === "auto" ? input.trigger : undefined;
  guard(ctx, "session", () => {
    if (input.transcript_path === "") return;
    const snapshot = buildCodexSnapshot(input.transcript_path, {
      sessionId: input.session_id,
      cwd: typeof input.cwd === "string" ? input.cwd : ctx.projectDir,
      trigger: trigger ?? null,
      builtBy: "pre-compact",
      budgetBytes: config.transcript.scanBudgetBytes,
      userRequests: config.session.userRequests,
      now: ctx.now,
    });
    writeSessionSnapshot(ctx.stateDir(), snapshot);
  });
  guard(ctx, "delivery", () =>
    writeCompactionRecord(ctx.stateDir(), key, {
      schema_version: 1,
      session_id: input.session_id,
      compaction_id: newCompactionId(ctx.now),
      workflow: "session",
      ...(trigger ? { trigger } : {}),
      created_at: ctx.now.toISOString(),
    }));
  guard(ctx, "sweep", () => {
    const dir = ctx.stateDir();
    sweepTempFiles([dir, join(dir, "sessions"), join(dir, "compactions")], { now: ctx.now });
    sweepSessionSnapshots(dir, { now: ctx.now });
  });
  return null;
}
