import { readdirSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { readProjectFile } from "../state/read_project_file.ts";

/** A pending decision in a checkpoint. */
export interface CheckpointDecision {
  id?: string;
  summary: string;
  affects?: string;
}

/** The content of cx-NNN-checkpoint.json (`schemas/checkpoint.v1.json`). */
export interface Checkpoint {
  schema_version: 1;
  checkpoint_id: string;
  session_id?: string;
  compaction_id?: string;
  created_at: string;
  project: string | null;
  orchestration_file: string | null;
  trigger: { type: "manual" | "auto"; source: "PreCompact" | "PostCompact" };
  context_state: { fill_fraction: number | null; tokens: number | null; window: number | null };
  orchestration_state: {
    workflow_id: string | null;
    workflow_status?: string | null;
    phase_number: number | string | null;
    phase_name: string | null;
    activity: string | null;
    gate: string | null;
    gate_iteration: number | null;
    gate_score: number | null;
  };
  recovery: { critical_context: string | null; next_action: string | null };
  pending_decisions: CheckpointDecision[];
  acknowledged: boolean;
  acknowledged_at: string | null;
  missing: string[];
  compact_summary?: string;
}

/** One checkpoint file found on disk. */
export interface CheckpointEntry {
  /** NNN as a number. */
  number: number;
  /** `cx-NNN` from the file name. */
  id: string;
  /** Absolute path. */
  path: string;
  /** File name. */
  name: string;
  /** The parsed content, or `null` when the file is corrupt (not JSON, or not a checkpoint). */
  data: Checkpoint | null;
  /** Modification time; 0 when unknown. */
  mtimeMs: number;
}

/** `cx-NNN-checkpoint.json`, NNN at least three digits. */
export const CHECKPOINT_NAME: RegExp = /^cx-(\d{3,})-checkpoint\.json$/;
/** Any name that holds a checkpoint number, set-aside corrupt files included, so numbers are never reused. */
const NUMBERED_NAME = /^cx-(\d{3,})-checkpoint\.json(?:\.corrupt)?$/;

/** The file name of checkpoint number `n`: `cx-001-checkpoint.json`. */
export function checkpointName(n: number): string {
  return `cx-${String(n).padStart(3, "0")}-checkpoint.json`;
}

/** The highest checkpoint number used in `dir` (0 when none). */
export function highestCheckpointNumber(dir: string): number {
  let max = 0;
  for (const name of safeList(dir)) {
    const m = NUMBERED_NAME.exec(name);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max;
}

/** Every checkpoint in `dir`, oldest (lowest number) first, each read and checked. Never throws. */
export function listCheckpoints(dir: string): CheckpointEntry[] {
  const out: CheckpointEntry[] = [];
  for (const name of safeList(dir)) {
    const m = CHECKPOINT_NAME.exec(name);
    if (!m) continue;
    const path = join(dir, name);
    // The repository's file: inside the checkpoints folder and with one link (issue #36, rule 6).
    const read = readProjectFile(dir, name, { maxBytes: 1024 * 1024 });
    if (!read.ok && read.problem === "missing") continue;
    let data: Checkpoint | null = null;
    if (read.ok) {
      try {
        data = asCheckpoint(JSON.parse(read.text));
      } catch { /* corrupt */ }
    }
    out.push({ number: Number(m[1]), id: `cx-${m[1]}`, path, name, data, mtimeMs: read.ok ? read.mtimeMs : 0 });
  }
  out.sort((a, b) => a.number - b.number);
  return out;
}

/** A corrupt checkpoint counts as unacknowledged: nothing says it was dealt with. */
export function isUnacknowledged(entry: CheckpointEntry): boolean {
  return entry.data === null || entry.data.acknowledged !== true;
}

/** The key a delivery of this checkpoint is recorded under in the session record. */
export function deliveryKey(entry: CheckpointEntry): string {
  const id = entry.data?.compaction_id;
  return typeof id === "string" && id !== ""
    ? id
    : `${entry.id}@${entry.data?.created_at ?? Math.round(entry.mtimeMs)}`;
}

/**
 * Accepts a parsed value as a checkpoint when its core fields have the right types; the model may
 * have edited the file (as the compaction alert asks), so the rest is read defensively by the
 * users.
 */
function asCheckpoint(value: unknown): Checkpoint | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.checkpoint_id !== "string" || typeof v.acknowledged !== "boolean") return null;
  for (const key of ["trigger", "context_state", "orchestration_state", "recovery"]) {
    const part = v[key];
    if (typeof part !== "object" || part === null || Array.isArray(part)) return null;
  }
  if (!Array.isArray(v.pending_decisions)) v.pending_decisions = [];
  if (!Array.isArray(v.missing)) v.missing = [];
  return v as unknown as Checkpoint;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
