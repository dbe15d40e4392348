import type { HookContext } from "../hook/handle_hook.ts";
import { resolve } from "../node/path.ts";
import { describeRestore } from "./describe_restore.ts";
import {
  readRestoreRecord,
  type RestorePart,
  restorePath,
  type RestoreRecord,
  writeRestoreRecord,
} from "./restore_record.ts";

/** What one hook adds to a compaction's restore record. */
export interface NoteRestoreUpdate {
  /** PreCompact's trigger, when known. */
  trigger?: "manual" | "auto";
  /** When the compaction happened (PreCompact's time); default now, for a record made at delivery. */
  compactedAt?: string;
  /** The context given back right after the compaction: the exact text, and the line shown to the user. */
  delivered?: { by: RestorePart["by"]; text: string; message?: string };
  /** What the first prompt after the delivery added ("" when the summary lacked nothing). */
  followUp?: { by: RestorePart["by"]; text: string };
}

/**
 * Records in the compaction's restore record (`lib/delivery/restore_record.ts`) what this hook
 * did: PreCompact that the compaction happened (not delivered yet), the delivering hook the exact
 * text and what it holds, the first prompt its follow-up. A record another hook started is
 * completed; a missing one is started (PreCompact did not run). Throws when the state directory is
 * unsafe or the write fails: the caller guards it, so a hook's output never depends on it.
 *
 * @example
 * ```ts
 * guard(ctx, "restore record", () => noteRestore(ctx, id, { delivered: { by: "session-start", text, message } }));
 * ```
 */
export function noteRestore(ctx: HookContext, compactionId: string, update: NoteRestoreUpdate): void {
  const dir = ctx.stateDir();
  const path = restorePath(dir, ctx.projectDir, compactionId);
  if (path === null) return;
  const now = ctx.now.toISOString();
  const record: RestoreRecord = readRestoreRecord(path, ctx.projectDir) ?? {
    schema_version: 1,
    project_dir: resolve(ctx.projectDir),
    session_id: ctx.input.session_id,
    compaction_id: compactionId,
    ...(update.trigger ? { trigger: update.trigger } : {}),
    compacted_at: update.compactedAt ?? now,
    delivered: null,
    follow_up: null,
  };
  const part = (p: { by: RestorePart["by"]; text: string; message?: string }): RestorePart => {
    const d = describeRestore(p.text);
    return {
      by: p.by,
      at: now,
      chars: p.text.length,
      elements: d.elements,
      summary: p.text === "" ? "nothing" : d.summary || "rehydrate's context",
      ...(p.message ? { message: p.message } : {}),
      text: p.text,
    };
  };
  if (update.delivered) record.delivered = part(update.delivered);
  if (update.followUp) record.follow_up = part(update.followUp);
  writeRestoreRecord(dir, record);
}
