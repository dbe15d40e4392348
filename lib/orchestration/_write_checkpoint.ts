import type { HookContext } from "../hook/handle_hook.ts";
import { contextFill } from "../transcript/context_fill.ts";
import { readProjectFile } from "../state/read_project_file.ts";
import { redact } from "../redact/redact.ts";
import { redactValue } from "../redact/redact_value.ts";
import type { ResumptionState } from "./resumption.ts";
import { readResumptionCached } from "./_resumption_cache.ts";
import type { Checkpoint } from "./checkpoints.ts";
import { buildCheckpoint } from "./_build_checkpoint.ts";
import { createCheckpointFile } from "./_create_checkpoint.ts";
import { relativePath } from "./format.ts";
import { MONITOR_STATE_FILE } from "./paths.ts";
import { ensureOrchDirs, type OrchRuntime } from "./_runtime.ts";
import { readSessionView } from "./_session.ts";
import { recordWritten } from "./provenance.ts";

/** Longest compact summary kept in a checkpoint, in characters. */
export const COMPACT_SUMMARY_MAX_CHARS = 8000;

/** A checkpoint that was written. */
export interface WrittenCheckpoint {
  path: string;
  relPath: string;
  checkpoint: Checkpoint;
  state: ResumptionState;
}

/**
 * Writes the next checkpoint of the workspace from the active run's ORCHESTRATION.yaml and the
 * context fill just before compaction (the transcript, else the monitor's last reading).
 */
export function writeOrchCheckpoint(
  ctx: HookContext<"PreCompact" | "PostCompact">,
  rt: OrchRuntime,
  source: "PreCompact" | "PostCompact",
  options: { compactSummary?: string; compactionId?: string } = {},
): WrittenCheckpoint {
  const input = ctx.input;
  const state = readResumptionCached(ctx, rt.layout.active.path);
  const missingFiles: string[] = [];
  const fill = fillBeforeCompaction(ctx, rt, missingFiles);
  ensureOrchDirs(rt.paths);
  const compactionId = options.compactionId ?? globalThis.crypto.randomUUID();
  let checkpoint: Checkpoint | undefined;
  const created = createCheckpointFile(rt.paths.checkpointsDir, (n) => {
    const built = buildCheckpoint({
      number: n,
      sessionId: input.session_id,
      compactionId,
      now: ctx.now,
      runId: rt.layout.active.id,
      orchestrationFile: rt.layout.active.relPath,
      state,
      trigger: typeof input.trigger === "string" ? input.trigger : undefined,
      source,
      fill,
      missingFiles,
    });
    if (options.compactSummary !== undefined) built.compact_summary = capSummary(options.compactSummary);
    checkpoint = redactValue(built);
    return JSON.stringify(checkpoint, null, 2) + "\n";
  });
  // Rule 4 of SECURITY.md: only checkpoints recorded as ours may speak in the hooks' voice later.
  recordWritten(ctx, created.path, checkpoint!);
  return { path: created.path, relPath: relativePath(ctx.projectDir, created.path), checkpoint: checkpoint!, state };
}

/** Redacts and caps a compaction summary. */
export function capSummary(summary: string): string {
  const text = redact(summary);
  if (text.length <= COMPACT_SUMMARY_MAX_CHARS) return text;
  const marker = `\n[… summary shortened by ${text.length - COMPACT_SUMMARY_MAX_CHARS} chars]`;
  let end = COMPACT_SUMMARY_MAX_CHARS - marker.length;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + marker;
}

function fillBeforeCompaction(
  ctx: HookContext,
  rt: OrchRuntime,
  missingFiles: string[],
): { fraction: number | null; tokens: number | null; window: number | null } | null {
  const config = ctx.config();
  let model: string | undefined;
  try {
    model = readSessionView(ctx).model;
  } catch { /* no per-user state: the window comes from the transcript's model */ }
  const windowTokens = config.contextWindow.tokens ?? undefined;
  if (ctx.input.transcript_path) {
    // Only the newest usage matters here (afterCompaction is not used): without stopAtUsage a
    // session that never compacted had its whole scan budget read.
    const fill = contextFill(ctx.input.transcript_path, {
      model,
      windowTokens,
      budgetBytes: config.transcript.scanBudgetBytes,
      stopAtUsage: true,
    });
    if (fill.source !== "none") return { fraction: round4(fill.fraction), tokens: fill.tokens, window: fill.window };
  }
  const read = readProjectFile(rt.paths.stateDir, MONITOR_STATE_FILE, { maxBytes: 64 * 1024 });
  if (read.ok) {
    try {
      const st = JSON.parse(read.text) as Record<string, unknown>;
      if (
        st.session_id === ctx.input.session_id && typeof st.fill_fraction === "number" && typeof st.window === "number"
      ) {
        return {
          fraction: st.fill_fraction,
          tokens: typeof st.tokens === "number" ? st.tokens : null,
          window: st.window,
        };
      }
    } catch { /* corrupt: treated as missing */ }
  }
  missingFiles.push(MONITOR_STATE_FILE);
  return null;
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
