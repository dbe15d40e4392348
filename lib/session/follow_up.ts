import type { HookContext } from "../hook/handle_hook.ts";
import { compactSummary } from "../transcript/compact_summary.ts";
import { readSessionSnapshot } from "./snapshot_file.ts";
import { renderSummaryGaps } from "./summary_gaps.ts";
import { sessionMark } from "./session_mark.ts";

/**
 * The everyday layer's follow-up after a compaction, for the first prompt once the compaction's
 * context was delivered: what the snapshot holds that Claude Code's summary left out
 * ({@linkcode renderSummaryGaps}), the summary read from the transcript (the row the client writes
 * after the boundary, which is not there yet when SessionStart runs). "" when the summary lacks
 * nothing, when there is no saved snapshot or no summary within the scan budget. Throws on an
 * unsafe state directory: the hook fails open.
 *
 * @example
 * ```ts
 * if (claimFollowUp(ctx) !== null) parts.push(guard(ctx, "session", () => sessionFollowUp(ctx, { maxChars: 4000 })));
 * ```
 */
export function sessionFollowUp(ctx: HookContext<"UserPromptSubmit">, options: { maxChars: number }): string {
  const input = ctx.input;
  if (ctx.sessionKey === null || typeof input.transcript_path !== "string" || input.transcript_path === "") return "";
  const { snapshot, problem } = readSessionSnapshot(ctx.stateDir(), input.session_id);
  if (problem !== null) ctx.log(`session: ${problem}`);
  if (snapshot === null) return "";
  const summary = compactSummary(input.transcript_path, ctx.config().transcript.scanBudgetBytes);
  if (summary === undefined) {
    ctx.log("session: no compaction summary in the transcript's tail: nothing to follow up");
    return "";
  }
  const mark = sessionMark(ctx.stateDir(), input.session_id);
  return renderSummaryGaps(snapshot, summary, { maxChars: options.maxChars, projectDir: ctx.projectDir, mark });
}
