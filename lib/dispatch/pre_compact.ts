import type { HookContext } from "../hook/handle_hook.ts";
import { expireRereadState } from "../reread/marker_expire.ts";
import { type RereadMarker, writeRereadMarker } from "../reread/marker_write.ts";
import { type SessionRole, sessionRole } from "./session_role.ts";
import { writeCompactionRecord } from "../delivery/compaction_record.ts";
import { newCompactionId } from "../state/files.ts";
import { type RereadItem, rereadReason } from "./_reason.ts";
import { refreshHandlerRegistration } from "./_role.ts";

/** Files another workflow wants re-read after this compaction. */
export interface RereadExtraFiles {
  /** Absolute paths, in order (at most 50 are kept). */
  files: string[];
  /** A sentence added to the reason, e.g. which project is active. */
  reason: string;
  /** The workflow that asks. */
  kind: "project" | "orchestration" | "session";
}

/**
 * PreCompact part of the re-read enforcement and of the delivery guarantee.
 * For a handler session (files: the handler state file, then the active
 * dispatch files), a worker session (its dispatch file), both as
 * `options.roleItems` gives them, or any session whose
 * caller passes `extraFiles` (a project or orchestration workflow is active),
 * it gives the compaction a new id, records it as not yet delivered
 * (`pendingDelivery` then finds it), and, when `reread.enforce` asks for it,
 * writes the one-shot marker that the next PreToolUse or Stop consumes.
 * `reread.enforce`: `"auto"` marks handler and worker sessions only, `true`
 * every session that has files (for handler and worker sessions the
 * `extraFiles` are added to theirs), `false` none. `options.compactionId` lets the
 * PreCompact hook give every record of one compaction the same id. A regular session without
 * `extraFiles` gets nothing: null, no file written. Also sweeps stale state.
 * Prints nothing (PreCompact stdout would become summarizer instructions).
 *
 * @example
 * ```ts
 * export const preCompactHook: HookHandler<"PreCompact"> = (ctx) => {
 *   const compaction = rereadPreCompact(ctx, undefined, { roleItems: roleRereadItems });
 *   if (compaction) ctx.log(`compaction ${compaction.compactionId}`);
 *   return null;
 * };
 * ```
 */
export function rereadPreCompact(
  ctx: HookContext<"PreCompact">,
  extraFiles?: RereadExtraFiles,
  options: {
    compactionId?: string;
    /**
     * The files of a handler or worker session (`roleRereadItems` of `./role_items.ts`, passed in
     * so that a PreCompact loads the dispatch files' parser only for such a session). Default:
     * none, so a handler or worker session re-reads only `extraFiles`.
     */
    roleItems?: (ctx: HookContext<"PreCompact">, role: SessionRole) => RereadItem[];
  } = {},
): { compactionId: string } | null {
  const input = ctx.input;
  const key = ctx.sessionKey;
  if (key === null) {
    ctx.log("re-read: session id refused, no compaction recorded");
    return null;
  }
  const config = ctx.config();
  const role = sessionRole(ctx);
  const items: RereadItem[] = [];
  let type: RereadMarker["session_type"];
  if (role.role === "handler" || role.role === "worker") {
    type = role.role;
    items.push(...(options.roleItems?.(ctx, role) ?? []));
  } else if (extraFiles) {
    type = extraFiles.kind;
  } else {
    return null;
  }
  if (extraFiles) {
    for (const f of extraFiles.files) if (typeof f === "string" && f !== "") items.push({ path: f, note: "" });
  }
  const seen = new Set<string>();
  const unique = items.filter((i) => !seen.has(i.path) && seen.add(i.path)).slice(0, 50);

  const dir = ctx.stateDir();
  const compactionId = options.compactionId ?? newCompactionId(ctx.now);
  const trigger = input.trigger === "manual" || input.trigger === "auto" ? input.trigger : undefined;
  const createdAt = ctx.now.toISOString();
  writeCompactionRecord(dir, key, {
    schema_version: 1,
    session_id: input.session_id,
    compaction_id: compactionId,
    workflow: type,
    ...(trigger ? { trigger } : {}),
    created_at: createdAt,
  });

  const enforce = config.reread.enforce;
  const dispatchSession = type === "handler" || type === "worker";
  const mark = enforce === true ? dispatchSession || unique.length > 0 : enforce === "auto" ? dispatchSession : false;
  if (mark) {
    const marker: RereadMarker = {
      schema_version: 1,
      session_id: input.session_id,
      session_type: type,
      compaction_id: compactionId,
      ...(trigger ? { trigger } : {}),
      files: unique.map((i) => i.path),
      reason: rereadReason(type, unique, extraFiles?.reason),
      created_at: createdAt,
    };
    writeRereadMarker(dir, marker);
    ctx.log(`re-read marker written (${type}, ${unique.length} files)`);
  }
  if (role.role === "handler") refreshHandlerRegistration(dir, key, input.session_id, ctx.now);
  try {
    expireRereadState(dir, { now: ctx.now, maxAgeSeconds: config.dispatch.markerMaxAgeSeconds });
  } catch (err) {
    ctx.log(`re-read: sweep failed: ${(err as Error).message}`);
  }
  return { compactionId };
}
