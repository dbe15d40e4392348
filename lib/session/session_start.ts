import type { HookContext } from "../hook/handle_hook.ts";
import { currentSessionSnapshot } from "./current_snapshot.ts";
import { renderSessionElement } from "./session_element.ts";
import { claudeDirs } from "./claude_dirs.ts";
import { sessionMark } from "./session_mark.ts";

/**
 * The everyday layer's context after a compaction: the `<session-context>` element rendered from
 * the snapshot PreCompact saved, or from one rebuilt now when the transcript has activity newer
 * than it (Claude Code can compact without running PreCompact). For SessionStart(compact) and for
 * UserPromptSubmit's re-delivery, which passes a smaller `maxChars`. "" when there is nothing to
 * say. Throws on an unsafe state directory: the hook fails open.
 *
 * @example
 * ```ts
 * const text = guard(ctx, "session", () => sessionContext(ctx, { maxChars: 9500 }));
 * ```
 */
export function sessionContext(
  ctx: HookContext<"SessionStart" | "UserPromptSubmit">,
  options: { maxChars: number },
): string {
  const input = ctx.input;
  if (ctx.sessionKey === null || typeof input.transcript_path !== "string" || input.transcript_path === "") return "";
  const { snapshot, rebuilt, keptWorkingSet, problem } = currentSessionSnapshot(ctx.stateDir(), input.transcript_path, {
    sessionId: input.session_id,
    cwd: typeof input.cwd === "string" ? input.cwd : ctx.projectDir,
    budgetBytes: ctx.config().transcript.scanBudgetBytes,
    userRequests: ctx.config().session.userRequests,
    now: ctx.now,
    ...claudeDirs(ctx.env),
  });
  if (problem) ctx.log(`session: ${problem}`);
  if (rebuilt) {
    ctx.log(
      keptWorkingSet
        ? "session: snapshot updated from the transcript (only typed messages since it: working set kept)"
        : "session: snapshot rebuilt from the transcript",
    );
  }
  const mark = sessionMark(ctx.stateDir(), input.session_id, { create: true });
  return renderSessionElement(snapshot, { maxChars: options.maxChars, mark });
}
