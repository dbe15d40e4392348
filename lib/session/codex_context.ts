import type { HookContext } from "../hook/handle_hook.ts";
import { newestCompaction } from "../codex/newest_compaction.ts";
import { buildCodexSnapshot, codexSnapshotMark } from "./codex_snapshot.ts";
import { gitBranch } from "./git_branch.ts";
import type { SessionSnapshot } from "./snapshot.ts";
import { readSessionSnapshot, writeSessionSnapshot } from "./snapshot_file.ts";
import { renderSessionElement } from "./session_element.ts";
import { renderSummaryGaps } from "./summary_gaps.ts";
import { sessionMark } from "./session_mark.ts";

/**
 * What Codex passes whole to the model from one hook: 2,500 tokens, which it counts as a quarter of
 * the text's UTF-8 bytes (`HOOK_OUTPUT_TOKEN_LIMIT`; more is cut to a preview and the whole output
 * spilled to a file under `/tmp/hook_outputs/`). rehydrate keeps a margin under the 10,000 bytes.
 */
export const CODEX_HOOK_MAX_BYTES = 9000;
/** SessionStart's element gets at most this share of the budget; the summary's gaps the rest. */
const ELEMENT_SHARE = 0.6;

/**
 * The everyday layer's context after a Codex compaction, for SessionStart (`compact`, or `resume`
 * when the compaction's context never arrived) and UserPromptSubmit's re-delivery: Codex writes
 * the summary (the rollout's `compacted` row) before SessionStart runs, so SessionStart's element
 * (`renderSessionElement`: the latest request, the commands) and what that summary lacks
 * (`renderSummaryGaps`: the open plan steps, earlier requests and edited files it does not carry;
 * the user messages Codex keeps word for word in the compacted context count as carried) come at
 * once, as two `<session-context>` elements, no follow-up needed. The snapshot is PreCompact's when
 * it is current (its newest activity row is the newest before the compaction), else rebuilt from
 * the rows before the compaction and saved. Everything within `maxBytes` UTF-8 bytes (default
 * {@linkcode CODEX_HOOK_MAX_BYTES}). "" when there is nothing to say. Throws on an unsafe state
 * directory: the hook fails open.
 *
 * @example
 * ```ts
 * const text = guard(ctx, "session", () => codexSessionContext(ctx));
 * ```
 */
export function codexSessionContext(
  ctx: HookContext<"SessionStart" | "UserPromptSubmit">,
  options: { maxBytes?: number } = {},
): string {
  const input = ctx.input;
  const path = input.transcript_path;
  if (ctx.sessionKey === null || typeof path !== "string" || path === "") return "";
  const budgetBytes = ctx.config().transcript.scanBudgetBytes;
  const cwd = typeof input.cwd === "string" && input.cwd !== "" ? input.cwd : ctx.projectDir;
  const dir = ctx.stateDir();
  const compaction = newestCompaction(path, { budgetBytes });
  const snapshot = currentCodexSnapshot(ctx, path, cwd, compaction !== undefined);
  const mark = sessionMark(dir, input.session_id, { create: true });
  const max = Math.max(0, options.maxBytes ?? CODEX_HOOK_MAX_BYTES);
  const element = fitBytes(
    Math.floor(max * ELEMENT_SHARE),
    (chars) => renderSessionElement(snapshot, { maxChars: chars, mark }),
  );
  if (compaction === undefined) {
    ctx.log("session: no compaction in the rollout's tail: the summary's gaps are not known");
    return element;
  }
  const covered = [compaction.summary, ...compaction.kept].join("\n");
  const left = max - bytes(element) - (element === "" ? 0 : 2);
  const gaps = fitBytes(
    left,
    (chars) => renderSummaryGaps(snapshot, covered, { maxChars: chars, projectDir: ctx.projectDir, mark }),
  );
  if (gaps === "") ctx.log("session: the compaction's summary lacks nothing the snapshot holds");
  return [element, gaps].filter((p) => p !== "").join("\n\n");
}

/** PreCompact's snapshot when it is still current, else one rebuilt from the rows before the compaction (and saved). */
function currentCodexSnapshot(
  ctx: HookContext<"SessionStart" | "UserPromptSubmit">,
  path: string,
  cwd: string,
  compacted: boolean,
): SessionSnapshot {
  const input = ctx.input;
  const dir = ctx.stateDir();
  const budgetBytes = ctx.config().transcript.scanBudgetBytes;
  const saved = readSessionSnapshot(dir, input.session_id);
  if (saved.problem !== null) ctx.log(`session: ${saved.problem}`);
  const head = codexSnapshotMark(path, { beforeCompaction: compacted, budgetBytes });
  const s = saved.snapshot;
  if (
    s !== null && s.host === "codex" &&
    (head.uuid === undefined ? head.timestamp === s.transcript.last_timestamp : head.uuid === s.transcript.last_uuid)
  ) {
    return { ...s, git: gitBranch(cwd) };
  }
  const snapshot = buildCodexSnapshot(path, {
    sessionId: input.session_id,
    cwd,
    trigger: s?.trigger,
    builtBy: "session-start",
    budgetBytes,
    beforeCompaction: compacted,
    userRequests: ctx.config().session.userRequests,
    now: ctx.now,
  });
  try {
    writeSessionSnapshot(dir, snapshot);
  } catch (err) {
    ctx.log(`session: ${(err as Error).message}`);
  }
  ctx.log("session: snapshot rebuilt from the rollout");
  return snapshot;
}

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * `render(chars)` within `maxBytes` UTF-8 bytes: the renderers count UTF-16 units, and text beyond
 * ASCII takes up to three bytes a unit. Rendered again with fewer units while it is over.
 */
function fitBytes(maxBytes: number, render: (maxChars: number) => string): string {
  let chars = maxBytes;
  for (let i = 0; i < 6 && chars > 0; i++) {
    const text = render(chars);
    const over = bytes(text) - maxBytes;
    if (over <= 0) return text;
    chars -= Math.max(over, 64);
  }
  return "";
}
