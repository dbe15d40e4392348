import type { HookContext } from "../hook/handle_hook.ts";
import { dispatchActiveFiles } from "./active_files.ts";
import { dispatchFile } from "./dispatch_file.ts";
import type { RereadItem } from "./_reason.ts";
import type { SessionRole } from "./session_role.ts";
import { safeId } from "../redact/safe_name.ts";

/**
 * The files a dispatch session re-reads after a compaction: for a handler its state file, then
 * its active dispatch files (with their title and status); for a worker its dispatch file. None
 * for a regular session. Reading them needs the dispatch files' frontmatter parser, which the
 * PreCompact of an ordinary session never loads (`hooks/pre-compact-workflows.ts`).
 *
 * @example
 * ```ts
 * const items = roleRereadItems(ctx, sessionRole(ctx)); // [{ path: "/w/handler-state.md", note: "handler state" }, …]
 * ```
 */
export function roleRereadItems(ctx: HookContext, role: SessionRole): RereadItem[] {
  const items: RereadItem[] = [];
  if (role.role === "handler") {
    const { stateFile, dispatches } = dispatchActiveFiles(ctx);
    if (stateFile !== null) items.push({ path: stateFile, note: "handler state" });
    // The title is the file's free text: the reason names the file and its status word only.
    for (const d of dispatches) items.push({ path: d.path, note: `active dispatch${statusNote(d.status)}` });
  } else if (role.role === "worker") {
    const d = dispatchFile(role.dispatchFile);
    items.push({ path: role.dispatchFile, note: `your dispatch file: contract + ## Progress${statusNote(d?.status)}` });
  }
  return items;
}

/** `, status <word>` when the status is one word of the identifier grammar, else nothing. */
function statusNote(status: string | null | undefined): string {
  return status && safeId(status, "") ? `, status ${status}` : "";
}
