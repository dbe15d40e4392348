import { redact } from "../redact/redact.ts";
import type { ResumptionState } from "./resumption.ts";

/** Whether the resumption section is up to date, and if not, why and what to update. */
export interface StaleReport {
  status: "FRESH" | "STALE" | "UNKNOWN";
  reasons: string[];
  /** Fields to update, as paths under the document root. */
  fields: string[];
}

/** Options for {@linkcode checkStaleness}. */
export interface StalenessOptions {
  /** The run's newest checkpoint: a resumption section older than it has not merged it. */
  newestCheckpoint?: { id: string; createdAt: string } | null;
  /** The same file before a write: a write that changes the run but not `updated_at` is stale. */
  previous?: ResumptionState | null;
}

const DONE = new Set(["PASS", "PASSED", "COMPLETE", "COMPLETED", "DONE"]);
const ACTIVE = new Set(["IN_PROGRESS", "ACTIVE", "RUNNING"]);

/**
 * Checks the resumption section against the rest of the run (docs/orchestration.md, "The staleness
 * check"): its `updated_at` must not be older than the current phase's start or the newest
 * checkpoint, its phase must be the phase in progress, its trajectory must know every passed gate
 * and every recorded score, and a write that changes the run must also move `updated_at`.
 */
export function checkStaleness(s: ResumptionState, options: StalenessOptions = {}): StaleReport {
  if (s.status !== "ok") {
    return {
      status: "UNKNOWN",
      reasons: [s.status === "invalid" ? `the file does not parse (${s.error})` : "the file cannot be read"],
      fields: [],
    };
  }
  const updated = s.updatedAt === null ? NaN : Date.parse(s.updatedAt);
  if (Number.isNaN(updated)) {
    return {
      status: "UNKNOWN",
      reasons: ["resumption.updated_at is missing or not a date"],
      fields: ["resumption.updated_at"],
    };
  }
  const reasons: string[] = [];
  const fields = new Set<string>();
  const phaseStart = s.phaseStartedAt === null ? NaN : Date.parse(s.phaseStartedAt);
  if (!Number.isNaN(phaseStart) && updated < phaseStart) {
    reasons.push(`updated_at is older than the start of phase ${s.phaseNumber}`);
    for (const f of ["current_activity", "next_step", "updated_at"]) fields.add(`resumption.${f}`);
  }
  const active = s.phases.find((p) => p.status !== null && ACTIVE.has(p.status.toUpperCase()));
  if (active && active.id !== null && (s.phaseNumber === null || String(active.id) !== String(s.phaseNumber))) {
    reasons.push(`phase ${active.id} is in progress but resumption.current_phase is ${s.phaseNumber ?? "unset"}`);
    for (const f of ["current_phase", "current_phase_name", "current_activity", "next_step"]) {
      fields.add(`resumption.${f}`);
    }
  }
  for (const g of s.gates) {
    if (
      g.status !== null && DONE.has(g.status.toUpperCase()) && s.gatesCompleted !== null &&
      !s.gatesCompleted.includes(g.name)
    ) {
      reasons.push(`${g.name} passed but is not in gates_completed`);
      fields.add("resumption.quality_trajectory.gates_completed");
      fields.add("resumption.quality_trajectory.gates_remaining");
    }
  }
  if (s.gate !== null) {
    const g = s.gates.find((x) => x.name === s.gate);
    const known = s.trajectoryScoreCounts[s.gate] ?? 0;
    if (g && g.scoreHistory.length > known) {
      reasons.push(`${s.gate} has ${g.scoreHistory.length} scores but the trajectory ${known}`);
      fields.add("resumption.quality_trajectory.score_history");
    }
    if (g && g.currentIteration !== null && s.gateIteration !== null && g.currentIteration > s.gateIteration) {
      reasons.push(`${s.gate} is at iteration ${g.currentIteration} but the trajectory says ${s.gateIteration}`);
      fields.add("resumption.quality_trajectory.current_gate_iteration");
      fields.add("resumption.current_activity");
    }
  }
  const cp = options.newestCheckpoint;
  if (cp && Date.parse(cp.createdAt) > updated) {
    reasons.push(`checkpoint ${cp.id} is newer than the resumption section`);
    fields.add(`resumption (merge ${cp.id})`);
  }
  const prev = options.previous;
  if (prev && prev.status === "ok" && prev.updatedAt === s.updatedAt) {
    const changed = changedTopLevel(prev.document, s.document);
    if (changed.length > 0) {
      reasons.push(`this write changed ${changed.join(", ")} but not resumption.updated_at`);
      if (!changed.includes("resumption")) {
        for (const f of ["current_activity", "next_step", "quality_trajectory"]) fields.add(`resumption.${f}`);
      }
    }
  }
  if (reasons.length === 0) return { status: "FRESH", reasons, fields: [] };
  fields.add("resumption.updated_at");
  return { status: "STALE", reasons, fields: [...fields] };
}

function changedTopLevel(before: unknown, after: unknown): string[] {
  if (typeof before !== "object" || before === null || typeof after !== "object" || after === null) return [];
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const out: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    // Keys come from the file unredacted (ResumptionState.document is not redacted).
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) out.push(redact(key));
  }
  return out;
}
