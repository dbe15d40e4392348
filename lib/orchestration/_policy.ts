import type { ResumptionState } from "./resumption.ts";
import { formatScore } from "./format.ts";

/** What the resumed session should do next, after the mid-QG-iteration policy. */
export interface NextAction {
  /** The text, or null when nothing is known. */
  text: string | null;
  /**
   * `restart`: compaction hit a gate iteration while scoring: start over (docs/orchestration.md).
   * `revision`: scoring of the iteration had finished; apply the revision, then re-score.
   * `recorded`: not in a gate iteration; the orchestrator's `next_step` as written.
   */
  kind: "restart" | "revision" | "recorded" | null;
}

const ITERATION = /^(.*?)-iteration-(\d+)(-revision)?$/i;

/**
 * Applies the quality-gate rule of docs/orchestration.md ("The checkpoint") to the run's state. An
 * activity `qg-N-iteration-M` means the gate was scoring: when the gate already holds a score for
 * iteration M (and no PASS), scoring had finished and only the revision remains ("apply the
 * revision, then re-score"); otherwise the partial iteration is worthless and is restarted from the
 * beginning. An activity ending in `-revision` is always a pending revision. The recorded
 * `next_step` is appended either way.
 */
export function nextActionFor(s: ResumptionState): NextAction {
  const m = s.activity === null ? null : ITERATION.exec(s.activity);
  if (!m) return { text: s.nextStep, kind: s.nextStep === null ? null : "recorded" };
  const gateName = s.gate ?? m[1];
  const gate = gateName.toUpperCase();
  const iteration = Number(m[2]);
  const info = s.gates.find((g) => g.name === gateName);
  const passed = info?.lastVerdict?.toUpperCase() === "PASS" || info?.status?.toUpperCase() === "PASS";
  const scored = iteration > 0 && s.gateScoreCount >= iteration;
  const recorded = s.nextStep === null ? "" : ` Recorded next step: ${s.nextStep}`;
  if (m[3] !== undefined || (scored && !passed)) {
    const findings = info && info.findings.length > 0
      ? ` (${info.findings.map((f) => f.split(/[ :]/, 1)[0]).join(", ")})`
      : "";
    const score = scored && s.gateScore !== null ? ` Scoring had finished (${formatScore(s.gateScore)}).` : "";
    return {
      kind: "revision",
      text:
        `Apply the revision for the ${gate} iteration ${iteration} findings${findings}, then re-score as iteration ${
          iteration + 1
        }; do not re-run the finished scoring.${score}${recorded}`,
    };
  }
  const strategies = info && info.strategies.length > 0 ? ` (${info.strategies.join(", ")})` : "";
  return {
    kind: "restart",
    text:
      `Restart ${gate} iteration ${iteration} from the beginning: re-read the deliverables and run all required strategies${strategies}; do not continue the partial iteration.${recorded}`,
  };
}
