import type { HookContext } from "../hook/handle_hook.ts";
import { renderCompactionAlert } from "./alert.ts";
import { type CheckpointEntry, deliveryKey, isUnacknowledged } from "./checkpoints.ts";
import { relativePath } from "./format.ts";
import type { OrchRuntime } from "./_runtime.ts";
import { countDeliveries, recordOrchestrationDelivery, type SessionView } from "./_session.ts";
import { xmlElement } from "../xml/xml_element.ts";
import { writtenHere } from "./provenance.ts";
import { runOfCheckpoint } from "./resume.ts";
import { renderXml } from "../xml/render_xml.ts";

/** Kinds recorded in the session record. */
export const FULL_KINDS: readonly string[] = ["compaction-alert", "orchestration-resume"];
const REMINDER_KIND = "compaction-reminder";

/**
 * The compaction alert policy: the newest unacknowledged checkpoint gets the full alert once per
 * session (a resumption prompt delivered at startup counts), then a one-line reminder on each
 * prompt until it is acknowledged, at most `reminderMax` times. `view` is null when the session
 * record cannot be used; then the full alert is given every time rather than never.
 */
export function compactionAlertFor(
  ctx: HookContext,
  rt: OrchRuntime,
  entries: CheckpointEntry[],
  view: SessionView | null,
  options: { event: "UserPromptSubmit" | "SessionStart"; reminders: boolean },
): string | null {
  // Rule 4 of SECURITY.md: only checkpoints this user's rehydrate wrote speak; the others are data.
  const unacked = entries.filter((e) => isUnacknowledged(e) && writtenHere(ctx, e));
  if (unacked.length === 0) return null;
  const newest = unacked[unacked.length - 1];
  const key = deliveryKey(newest);
  const checkpointPath = relativePath(ctx.projectDir, newest.path);
  if (view === null || countDeliveries(view, FULL_KINDS, key) === 0) {
    // The full alert is for this session's own compaction only; an older session's checkpoint
    // comes back through the resumption prompt at startup (which then allows the reminders).
    const session = newest.data?.session_id;
    if (session !== ctx.input.session_id) return null;
    const same = entries.filter((e) => e.data?.session_id === session);
    const text = renderCompactionAlert(newest.data, {
      checkpointPath,
      // The run the checkpoint names, when it is one of the workspace's runs (found inside the
      // project); a forged `orchestration_file` never reaches the alert.
      orchestrationPath: runOfCheckpoint(rt.layout.runs, newest)?.relPath ?? rt.layout.active.relPath,
      eventNumber: same.indexOf(newest) + 1,
      eventTotal: same.length,
      unacknowledged: unacked.length,
      maxTokens: rt.settings.alertMaxTokens,
    });
    if (view !== null) {
      recordOrchestrationDelivery(ctx, view, {
        event: options.event,
        kind: "compaction-alert",
        chars: text.length,
        compaction_id: key,
      });
    }
    return text;
  }
  if (!options.reminders || countDeliveries(view, [REMINDER_KIND], key) >= rt.settings.reminderMax) return null;
  const text = renderXml(xmlElement(
    "compaction-reminder",
    { checkpoint: checkpointPath, unacknowledged: unacked.length },
    "Compaction checkpoint not acknowledged yet: merge it into the resumption section, then set acknowledged=true in it (or run: rehydrate ack).",
  ));
  recordOrchestrationDelivery(ctx, view, {
    event: options.event,
    kind: REMINDER_KIND,
    chars: text.length,
    compaction_id: key,
  });
  return text;
}
