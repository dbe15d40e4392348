/**
 * Lets the detectors take either transcript rows or evidence already collected, so
 * `detectWorkspace` reads the transcript once for all of them.
 */
import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { collectEvidence, type DetectionEvidence } from "./_evidence.ts";

/** Rows newest first (as `scanTranscript` yields them), or evidence from `collectEvidence`. */
export type DetectionSource = Iterable<TranscriptRow> | DetectionEvidence;

/** The evidence of `source`, collecting it when given rows. */
export function evidenceOf(source: DetectionSource, maxCalls?: number): DetectionEvidence {
  if ((source as DetectionEvidence).kind === "detection-evidence") return source as DetectionEvidence;
  return collectEvidence(source as Iterable<TranscriptRow>, maxCalls === undefined ? {} : { maxCalls });
}

/** `0.5 ** (age / halfLife)`: weight of evidence `age` tool calls old. */
export function decay(age: number, halfLife: number): number {
  return Math.pow(0.5, age / halfLife);
}

/** Rounds a score for output. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
