// Which checkpoints this user's rehydrate wrote (rule 4 of SECURITY.md), for the orchestration
// hooks and `rehydrate resume-prompt`. Only those may give a resumption prompt, a compaction alert or a reminder; a
// checkpoint that came with the repository or from another machine gets at most the one neutral
// line below.
import type { HookContext } from "../hook/handle_hook.ts";
import {
  checkpointRecordPath,
  isRecordedCheckpoint,
  recordCheckpointProvenance,
} from "../state/checkpoint_provenance.ts";
import { renderXml } from "../xml/render_xml.ts";
import { xmlElement } from "../xml/xml_element.ts";
import type { Checkpoint, CheckpointEntry } from "./checkpoints.ts";

/**
 * What is recorded of a checkpoint: its content without the acknowledgement, as compact JSON in
 * its own key order. Acknowledging (by `rehydrate ack` or by hand) and reformatting keep a
 * checkpoint ours; a changed value (a next action, a file) makes it foreign.
 */
function provenanceText(checkpoint: Checkpoint): string {
  return JSON.stringify({ ...checkpoint, acknowledged: undefined, acknowledged_at: undefined });
}

/**
 * {@linkcode writtenHere} against an explicit state directory (the CLI has no hook context).
 *
 * @example
 * ```ts
 * import { checkpointWrittenHere } from "./provenance.ts";
 *
 * const elsewhere = listCheckpoints(dir).filter((e) => !checkpointWrittenHere(stateDir(), e));
 * ```
 */
export function checkpointWrittenHere(stateDir: string | null, entry: CheckpointEntry): boolean {
  return entry.data !== null && isRecordedCheckpoint(stateDir, entry.path, provenanceText(entry.data));
}

/**
 * Records `checkpoint`, as just written to `path`, as this user's (the record a later
 * {@linkcode checkpointWrittenHere} finds) in `stateDir`. Throws when the state directory cannot
 * be written.
 *
 * @example
 * ```ts
 * import { recordCheckpointWritten } from "./provenance.ts";
 *
 * writeFileAtomic(path, JSON.stringify(cp, null, 2) + "\n");
 * recordCheckpointWritten("/home/me/.local/state/rehydrate", path, cp);
 * ```
 */
export function recordCheckpointWritten(stateDir: string, path: string, checkpoint: Checkpoint): void {
  recordCheckpointProvenance(stateDir, path, provenanceText(checkpoint));
}

/** Answers already given for an entry read in this process (each entry is checked once). */
const checked = new WeakMap<CheckpointEntry, boolean>();

/** The private state directory, or null when there is none to check against (then nothing is ours). */
function stateDirOf(ctx: HookContext): string | null {
  try {
    return ctx.stateDir();
  } catch {
    return null;
  }
}

/** The provenance record each checked entry was compared with. */
const records = new WeakMap<CheckpointEntry, string>();

/**
 * The provenance records the checks of `entries` in this process looked at (present or not), so
 * the usual prompt's memo names every file its answer depended on.
 *
 * @example
 * ```ts
 * import { provenanceRecords } from "./provenance.ts";
 *
 * const deps = [...entries.map((e) => e.path), ...provenanceRecords(entries)];
 * ```
 */
export function provenanceRecords(entries: readonly CheckpointEntry[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    const r = records.get(e);
    if (r !== undefined) out.push(r);
  }
  return out;
}

/**
 * True when this user's rehydrate wrote `entry` as it is now (recorded in the private state
 * directory); acknowledging it does not change that. Checked once per entry.
 *
 * @example
 * ```ts
 * import { writtenHere } from "./provenance.ts";
 *
 * const ours = listCheckpoints(rt.paths.checkpointsDir).filter((e) => writtenHere(ctx, e));
 * ```
 */
export function writtenHere(ctx: HookContext, entry: CheckpointEntry): boolean {
  const known = checked.get(entry);
  if (known !== undefined) return known;
  const dir = stateDirOf(ctx);
  const ours = checkpointWrittenHere(dir, entry);
  checked.set(entry, ours);
  const record = dir === null || entry.data === null ? null : checkpointRecordPath(dir, entry.path);
  if (record !== null) records.set(entry, record);
  return ours;
}

/**
 * Records a checkpoint rehydrate has just written (`checkpoint` as written to `path`); a failure
 * is logged and leaves it foreign (the safe side).
 *
 * @example
 * ```ts
 * import { recordWritten } from "./provenance.ts";
 *
 * writeFileAtomic(path, JSON.stringify(cp, null, 2) + "\n");
 * recordWritten(ctx, path, cp);
 * ```
 */
export function recordWritten(ctx: HookContext, path: string, checkpoint: Checkpoint): void {
  try {
    const dir = stateDirOf(ctx);
    if (dir === null) throw new Error("no state directory");
    recordCheckpointWritten(dir, path, checkpoint);
  } catch (err) {
    ctx.log(`orchestration: checkpoint provenance not recorded: ${(err as Error).message}`);
  }
}

/**
 * The one neutral line a workspace with unacknowledged checkpoints written elsewhere gets.
 *
 * @example
 * ```ts
 * import { elsewhereLine } from "./provenance.ts";
 *
 * elsewhereLine(1);
 * // '<checkpoints-elsewhere unacknowledged="1">This repository holds checkpoints written elsewhere; …</checkpoints-elsewhere>'
 * ```
 */
export function elsewhereLine(count: number): string {
  return renderXml(xmlElement(
    "checkpoints-elsewhere",
    { unacknowledged: count },
    "This repository holds checkpoints written elsewhere; `rehydrate resume-prompt` shows them.",
  ));
}
