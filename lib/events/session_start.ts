import type { HookHandler } from "../hook/handle_hook.ts";
import { dispatchSessionStart } from "../dispatch/session_start.ts";
import { noteRestore } from "../delivery/note_restore.ts";
import { restoreMessage } from "../delivery/restore_message.ts";
import { mayUseOrchestration } from "../orchestration/uses_orchestration_layout.ts";
import { usesProjectsLayout } from "../projects/uses_projects_layout.ts";
import { guard, joinWithin } from "./_guard.ts";
import { deliveryReply, startDelivery } from "./_start_delivery.ts";
import { orchestrationSessionStart } from "../orchestration/session_start.ts";
import { projectSessionStart } from "../projects/session_start.ts";
import { sessionContext } from "../session/session_start.ts";
import { replayedNexusContext } from "../projects/replayed_context.ts";
import { codexSessionStart } from "./codex_session_start.ts";

/**
 * Bytes of the transcript's end a resume reads for the resume injection rule: about 20 ms. Past
 * it, the replayed context (if any) is far back in a long session and nothing is injected.
 */
const REPLAY_BUDGET = 2 * 1024 * 1024;
/** The everyday element's share of the budget when a project workspace adds its own document. */
const SESSION_SHARE = 3000;

/**
 * SessionStart: records the session's main-loop model and source (only SessionStart carries
 * the model, and the model decides the context window), then lets each workflow add its context
 * to one `additionalContext`, within `budget.maxChars` (at most 10,000: Claude Code replaces
 * longer hook text with a 2 KB preview).
 *
 * - `compact`: claims the delivery of the compaction PreCompact recorded (exactly one claimant
 *   wins, see docs/delivery.md) and injects the worker's dispatch pointer, the orchestration
 *   alert and the project's `<nexus-context mode="compact">`.
 * - `resume` / `fork`: Claude Code replays what the session already received, so only a
 *   compaction whose context never arrived is delivered, and the workspace's document when the
 *   replayed transcript holds none (the resume injection rule, docs/projects.md).
 * - `startup` / `clear`: the project's startup context and an orchestration run's resumption
 *   prompt when it has an unacknowledged checkpoint; `clear` never resumes a project.
 *
 * Under the Codex CLI, `codexSessionStart` instead.
 *
 * @example
 * ```ts
 * runHook("SessionStart", sessionStartHook);
 * ```
 */
export const sessionStartHook: HookHandler<"SessionStart"> = (ctx) => {
  if (ctx.host === "codex") return codexSessionStart(ctx);
  const start = startDelivery(ctx);
  const source = start.source;
  if (start.kind === "replay") return resumeReplay(ctx, source);
  if (start.kind === "recent") {
    ctx.log("compact: delivered moments ago by a parallel SessionStart (rehydrate registered twice?)");
    return null;
  }
  if (start.kind === "delivered") return null;

  const config = ctx.config();
  const maxChars = Math.min(config.budget.maxChars, 10_000);
  const dispatch = guard(ctx, "dispatch", () => dispatchSessionStart(ctx, { maxChars: 1500 }));
  // Workflow code runs only where its layout exists (imported statically: see lib/events/user_prompt_submit.ts).
  const orchestration = mayUseOrchestration(ctx.projectDir, config)
    ? guard(ctx, "orchestration", () => orchestrationSessionStart(ctx, { maxChars: Math.min(3000, maxChars) }))
    : null;
  const projects = usesProjectsLayout(ctx.projectDir, config);
  let used = (dispatch?.length ?? 0) + (orchestration?.length ?? 0) + 4;
  // The everyday layer, in every repository, after a compaction: the base the workflows build on.
  // Beside a project's own document it keeps to a share of the budget.
  // `session.enabled: false` turns it off.
  const delivering = source === "compact" || source === "resume" || source === "fork";
  const session = delivering && config.session.enabled !== false
    ? guard(
      ctx,
      "session",
      () => sessionContext(ctx, { maxChars: projects ? Math.min(SESSION_SHARE, maxChars - used) : maxChars - used }),
    )
    : null;
  if (session) used += session.length + 2;
  const project = projects
    ? guard(ctx, "project", () => projectSessionStart(ctx, { maxChars: maxChars - used, layoutChecked: true }))
    : null;
  if (project?.dropped.length) ctx.log(`project: not inlined: ${project.dropped.join(", ")}`);
  const context = joinWithin([session, dispatch, orchestration, project?.additionalContext], maxChars);
  if (start.kind === "claimed") {
    // One line for the user on what came back (never seen by the model), and the project's record
    // of it for `rehydrate status`.
    const message = config.session.restoreMessage !== false ? restoreMessage(context, { followUpLater: true }) : "";
    guard(ctx, "restore record", () =>
      noteRestore(ctx, start.id, {
        trigger: start.record?.trigger,
        compactedAt: start.record?.created_at,
        delivered: { by: "session-start", text: context, message },
      }));
    return deliveryReply(ctx, start.id, "session-start", context, message);
  }
  if (!context) return null;
  return { json: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } } };
};

/**
 * `resume` / `fork` without an undelivered compaction: the resume injection rule
 * (docs/projects.md, "Resume"). Claude Code replays the transcript from its last compact
 * boundary; when that part holds no `<nexus-context>` of ours (the session predates rehydrate,
 * or its context came before a compaction whose own was lost), the workspace's document is
 * injected in full. When it holds one, or the bounded read cannot tell, nothing is printed.
 */
function resumeReplay(ctx: Parameters<HookHandler<"SessionStart">>[0], source: string) {
  const config = ctx.config();
  if (!usesProjectsLayout(ctx.projectDir, config)) return null;
  const replayed = guard(
    ctx,
    "project",
    () => replayedNexusContext(ctx.input.transcript_path, Math.min(config.transcript.scanBudgetBytes, REPLAY_BUDGET)),
  );
  if (replayed !== "absent") {
    ctx.log(
      `${source}: ${
        replayed === "present" ? "the replayed transcript holds the workspace context" : "replay not read to its start"
      }`,
    );
    return null;
  }
  const maxChars = Math.min(config.budget.maxChars, 10_000);
  const project = guard(
    ctx,
    "project",
    () => projectSessionStart(ctx, { maxChars, layoutChecked: true, redeliver: true }),
  );
  if (!project?.additionalContext) return null;
  ctx.log(
    `${source}: the replayed transcript holds no workspace context: ${project.additionalContext.length} characters`,
  );
  return {
    json: {
      hookSpecificOutput: { hookEventName: "SessionStart" as const, additionalContext: project.additionalContext },
    },
  };
}
