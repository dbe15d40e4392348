import type { HookHandler } from "../hook/handle_hook.ts";
import { dispatchSessionStart } from "../dispatch/session_start.ts";
import { pendingDelivery } from "../delivery/pending.ts";
import { latestCompaction } from "../delivery/latest_compaction.ts";
import { claimFollowUp } from "../delivery/follow_up.ts";
import { recordDelivery } from "../delivery/record.ts";
import { noteRestore } from "../delivery/note_restore.ts";
import { restoreMessage } from "../delivery/restore_message.ts";
import { mayUseOrchestration } from "../orchestration/uses_orchestration_layout.ts";
import { usesProjectsLayout } from "../projects/uses_projects_layout.ts";
import { guard, joinWithin } from "./_guard.ts";
import { projectSessionStart } from "../projects/session_start.ts";
import { orchestrationPromptContext, type QuietFacts } from "../orchestration/monitor.ts";
import { writeQuietMemo } from "./quiet_prompt_memo.ts";
import { sessionContext } from "../session/session_start.ts";
import { sessionFollowUp } from "../session/follow_up.ts";
import { fillWarning, type FillWarningFacts } from "../session/fill_warning.ts";
import { codexUserPromptSubmit } from "./codex_user_prompt_submit.ts";

const SHORT_FORM_CHARS = 4000;
/** The everyday element's short form when this prompt re-delivers a compaction's context. */
const SESSION_SHORT_CHARS = 3000;
const SESSION_SHORT_WITH_PROJECT = 1200;
/** What the compaction's summary left out, on the first prompt after its delivery. */
const FOLLOW_UP_CHARS = 4000;

/**
 * UserPromptSubmit, on every prompt: the second delivery channel and the context monitor.
 * When a compaction's context never arrived (SessionStart's output was dropped), it claims the
 * delivery and injects a short form (the everyday `<session-context>` within 3,000 characters, the dispatch pointer, the project's compact context within
 * 4,000 characters, files beyond that named for the agent to read); a compaction is never
 * delivered twice. The first prompt after a delivery also gets, once, what the compaction's
 * summary left out (lib/session/follow_up.ts): SessionStart runs before the client writes the
 * summary, this prompt can read it. Then the orchestration monitor adds `<context-monitor>` from WARNING up and
 * the compaction alert or its reminder; without an orchestrated run the everyday fill warning
 * (lib/session/fill_warning.ts) adds a `<context-fill>` line when the fill crosses a threshold.
 * When only the monitor or the fill warning spoke it leaves the memo that lets the next prompt take
 * the fast path (lib/events/quiet_prompt.ts). Workflow code runs only where its layout exists. It is
 * imported statically: a lazy `import()` made the bundle's module helpers and Bun's `require`
 * hot enough for the JIT to compile them on every prompt (bench/README.md), which cost more than
 * initialising the modules a prompt without a layout does not need. Under the Codex CLI,
 * `codexUserPromptSubmit` instead.
 *
 * @example
 * ```ts
 * runHook("UserPromptSubmit", userPromptSubmitHook);
 * ```
 */
export const userPromptSubmitHook: HookHandler<"UserPromptSubmit"> = (ctx) => {
  if (ctx.host === "codex") return codexUserPromptSubmit(ctx);
  const parts: (string | null | undefined)[] = [];
  const config = ctx.config();
  // The compaction record is read once for both questions (delivery, then follow-up).
  const latest = guard(ctx, "delivery", () => latestCompaction(ctx));
  const pending = latest && guard(ctx, "delivery", () => pendingDelivery(ctx, { latest }));
  const claimed = pending &&
    guard(ctx, "delivery", () => recordDelivery(ctx, pending.compactionId, "user-prompt-submit"));
  if (claimed) {
    ctx.log(`re-delivering compaction ${pending.compactionId}: SessionStart did not`);
    const projects = usesProjectsLayout(ctx.projectDir, config);
    // The whole short form stays within SHORT_FORM_CHARS; beside a project the everyday part is smaller.
    // `session.enabled: false` turns the everyday element off.
    const session = config.session.enabled === false ? null : guard(
      ctx,
      "session",
      () => sessionContext(ctx, { maxChars: projects ? SESSION_SHORT_WITH_PROJECT : SESSION_SHORT_CHARS }),
    );
    parts.push(session);
    parts.push(guard(ctx, "dispatch", () => dispatchSessionStart(ctx, { short: true, maxChars: 1000 })));
    if (projects) {
      const left = SHORT_FORM_CHARS - (session ? session.length + 2 : 0);
      parts.push(
        guard(ctx, "project", () => {
          return projectSessionStart(ctx, { source: "compact", maxChars: left, layoutChecked: true });
        })?.additionalContext,
      );
    }
  }
  // The second part of a compaction's context: once it was delivered (by SessionStart, or just now)
  // and the summary is in the transcript, what that summary left out, once.
  const followUp = latest && config.session.enabled !== false
    ? guard(ctx, "delivery", () => claimFollowUp(ctx, { latest }))
    : null;
  let gaps: string | null = null;
  if (followUp) {
    gaps = guard(ctx, "session", () => sessionFollowUp(ctx, { maxChars: FOLLOW_UP_CHARS }));
    ctx.log(
      gaps
        ? `delivery: follow-up of compaction ${followUp}: ${gaps.length} characters`
        : `delivery: follow-up of compaction ${followUp}: the summary lacks nothing`,
    );
    parts.push(gaps);
  }
  const maxChars = Math.min(config.budget.maxChars, 10_000);
  // joinWithin keeps or skips each part in order, so the re-delivered parts alone join to what of
  // them the reply holds: the log says "delivered" only for those characters, not the monitor's.
  let message = "";
  if (claimed) {
    const redelivered = joinWithin(parts, maxChars);
    ctx.log(
      redelivered
        ? `delivery: compaction ${claimed} delivered by user-prompt-submit: ${redelivered.length} characters`
        : `delivery: compaction ${claimed} claimed by user-prompt-submit, nothing to print`,
    );
    // The line for the user and the project's record, as SessionStart gives them when it delivers;
    // the follow-up, in the same reply, is recorded as such below.
    const text = gaps ? joinWithin(parts.filter((p) => p !== gaps), maxChars) : redelivered;
    if (config.session.restoreMessage !== false) message = restoreMessage(redelivered);
    guard(ctx, "restore record", () =>
      noteRestore(ctx, claimed, {
        trigger: latest?.record?.compaction_id === claimed ? latest.record.trigger : undefined,
        compactedAt: pending.compactedAt,
        delivered: { by: "user-prompt-submit", text, message },
      }));
  }
  if (followUp) {
    // What the model got of the follow-up: nothing when the summary lacked nothing or the budget left it out.
    const joined = joinWithin(parts, maxChars);
    const text = gaps && joined.includes(gaps) ? gaps : "";
    guard(ctx, "restore record", () => noteRestore(ctx, followUp, { followUp: { by: "user-prompt-submit", text } }));
  }
  let quiet: QuietFacts | null = null;
  let spoke = false;
  let monitor = false;
  if (mayUseOrchestration(ctx.projectDir, config)) {
    const part = guard(ctx, "orchestration", () => {
      return orchestrationPromptContext(ctx, { onQuiet: (f) => quiet = f, onMonitor: () => monitor = true });
    });
    parts.push(part);
    spoke = part !== null;
  }
  // Everywhere else the everyday fill warning: one line per threshold crossed. In a run the
  // monitor speaks for the fill, so there is one warning and one budget. A prompt that re-delivers
  // a compaction keeps to its short form: a crossing then speaks on the next prompt.
  let fill: FillWarningFacts | null = null;
  const fillOn = !monitor && config.session.enabled !== false && config.session.fillWarnings.length > 0;
  if (!monitor && !claimed) {
    parts.push(guard(ctx, "fill warning", () => fillWarning(ctx, { onQuiet: (f) => fill = f })));
  }
  // Nothing re-delivered and only the monitor or the fill warning, if anything, spoke: the next
  // prompt may take the fast path (lib/events/quiet_prompt.ts). Not when the fill warning failed:
  // the memo would say it has nothing to say.
  if (!pending && !followUp && (quiet !== null || !spoke) && (fill !== null || !fillOn)) {
    guard(ctx, "quiet memo", () => writeQuietMemo(ctx, quiet, maxChars, { fill }));
  }
  const context = joinWithin(parts, maxChars);
  if (!context) return null;
  return {
    json: {
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context },
      ...(message ? { systemMessage: message } : {}),
    },
  };
};
