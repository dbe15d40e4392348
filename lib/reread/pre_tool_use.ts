import { realpathSync } from "../node/fs.ts";
import { isAbsolute, resolve } from "../node/path.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { consumeRereadMarker } from "./marker_consume.ts";

/**
 * PreToolUse part of the re-read enforcement: the first tool call after a
 * compaction that left a marker for this session consumes the marker and is
 * denied once, with a reason naming the files to re-read and why. A `Read`
 * of one of those files (compared after resolving against the project
 * directory, then through symbolic links) is let through instead and counts
 * as the re-read. Either way the marker is gone, so later calls pass. Without
 * a marker (every regular session, and every call but the first) it returns
 * null after a single `lstat`.
 *
 * @example
 * ```ts
 * export const preToolUseHook: HookHandler<"PreToolUse"> = (ctx) => {
 *   const json = rereadPreToolUse(ctx);
 *   return json ? { json } : null;
 * };
 * ```
 */
export function rereadPreToolUse(ctx: HookContext<"PreToolUse">): Record<string, unknown> | null {
  const input = ctx.input;
  const dir = ctx.stateDir();
  const marker = consumeRereadMarker(dir, input.session_id, {
    now: ctx.now,
    maxAgeSeconds: ctx.config().dispatch.markerMaxAgeSeconds,
    log: ctx.log,
  });
  if (marker === null) return null;
  if (input.tool_name === "Read") {
    const toolInput = input.tool_input as { file_path?: unknown } | null | undefined;
    const path = toolInput && typeof toolInput === "object" ? toolInput.file_path : undefined;
    if (typeof path === "string" && path !== "" && namesOneOf(path, marker.files, ctx.projectDir)) {
      ctx.log(`re-read marker consumed by a Read of ${path}`);
      return null;
    }
  }
  ctx.log(`re-read marker consumed: ${input.tool_name ?? "tool"} call denied once`);
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: marker.reason,
    },
  };
}

function namesOneOf(path: string, files: string[], base: string): boolean {
  const wanted = isAbsolute(path) ? resolve(path) : resolve(base, path);
  for (const f of files) if (resolve(base, f) === wanted) return true;
  const real = realOrNull(wanted);
  if (real === null) return false;
  for (const f of files) if (realOrNull(resolve(base, f)) === real) return true;
  return false;
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
