import type { HookContext } from "../hook/handle_hook.ts";
import { readSessionRecord, updateSessionRecord } from "../state/session_record.ts";

/** One entry of the session record's `deliveries` (`schemas/session_record.v1.json`). */
export interface Delivery {
  at: string;
  event: "SessionStart" | "UserPromptSubmit" | "PreToolUse" | "PostToolUse" | "Stop" | "PostCompact";
  kind: string;
  chars: number;
  compaction_id?: string | null;
}

/** What the orchestration workflow reads from the per-session record. */
export interface SessionView {
  /** The main-loop model from SessionStart (may carry `[1m]`). */
  model?: string;
  deliveries: Delivery[];
}

/** Reads the session's record from the per-user state directory; empty when there is none. */
export function readSessionView(ctx: HookContext): SessionView {
  const key = ctx.sessionKey;
  if (key === null) return { deliveries: [] };
  const rec = readSessionRecord(ctx.stateDir(), key);
  if (rec === null) return { deliveries: [] };
  const view: SessionView = { deliveries: Array.isArray(rec.deliveries) ? rec.deliveries as Delivery[] : [] };
  if (typeof rec.model === "string" && rec.model !== "") view.model = rec.model;
  return view;
}

/**
 * Appends to the session record's `deliveries` that an orchestration text (the compaction alert,
 * a reminder, the resumption prompt) was given to this session, keeping the newest 100 as its
 * schema asks. Not the delivery claim of a compaction (lib/delivery/record.ts).
 */
export function recordOrchestrationDelivery(ctx: HookContext, view: SessionView, delivery: Omit<Delivery, "at">): void {
  const deliveries = [...view.deliveries, { at: ctx.now.toISOString(), ...delivery }].slice(-100);
  view.deliveries = deliveries;
  updateSessionRecord(ctx.stateDir(), ctx.input.session_id, { deliveries }, { now: ctx.now });
}

/** How many deliveries of `kind` answer the compaction `key`. */
export function countDeliveries(view: SessionView, kinds: readonly string[], key: string): number {
  let n = 0;
  for (const d of view.deliveries) {
    if (d && typeof d === "object" && d.compaction_id === key && kinds.includes(d.kind)) n++;
  }
  return n;
}
