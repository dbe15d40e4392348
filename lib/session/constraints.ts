import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { cutText, oneLine } from "../redact/quote_line.ts";
import { redact } from "../redact/redact.ts";
import { queuedUserText, typedUserText } from "./user_requests.ts";

/** Collects the user's standing instructions from rows read newest first. */
export interface ConstraintTracker {
  /** Feeds the next row (each older than the one before). */
  add(row: TranscriptRow): void;
  /** Adds, as older than every row fed, the constraints a snapshot kept of the rows before them. */
  older(constraints: readonly string[]): void;
  /** True once no older row can change the result. */
  full(): boolean;
  /** The constraints, newest first. */
  result(): string[];
}

/** Constraints kept. */
export const MAX_CONSTRAINTS = 5;
/** Longest constraint kept, in UTF-16 units. */
export const MAX_CONSTRAINT_CHARS = 300;
/** A message longer than this is a paste (a log, a review), not a list of the user's rules. */
const MAX_MESSAGE_CHARS = 2000;
/**
 * A standing instruction to the agent, in the imperative: "don't", "do not" or "never" at the start
 * of a clause (or after "no", "but", "please", "and", …), "always", "make sure" or "avoid" at the
 * start of a clause, "you/we must", "must not". Descriptive uses ("I don't think", "to always
 * return 0", "patterns don't cause") are not rules.
 */
const RULES: readonly RegExp[] = [
  /(?:^|[,;:?!(—-]\s*|\b(?:no|yes|ok|okay|but|please|so|just|also|then|and)\s+)(?:please\s+)?(?:don'?t|do not|never)\b/i,
  /(?:^|[,;:?!(—-]\s*|\b(?:but|please|so|just|also|then)\s+)(?:always|make sure|avoid)\b/i,
  /\b(?:you|we) must\b|\bmust not\b|\bmustn'?t\b/i,
];

/**
 * Collects, from rows read newest first, the user's standing instructions in their own words: the
 * sentences of typed or queued messages that say never, don't, do not, must, always, make sure or
 * avoid ("please don't amend commits", "always run the linter before committing"), not questions,
 * newest first, each once, at most {@linkcode MAX_CONSTRAINTS}. The newest `skip` messages are
 * left out: they are the latest requests, quoted whole. A message longer than 2,000 characters is
 * a paste (a log, a review) and gives none. Summaries tend to paraphrase such rules; the first
 * prompt after a compaction gives back those its summary does not quote. Redacted and capped.
 *
 * @example
 * ```ts
 * import { constraintTracker } from "./constraints.ts";
 * const tracker = constraintTracker({ skip: 1 });
 * for (const row of rowsNewestFirst) tracker.add(row);
 * tracker.result(); // ["please don't amend commits"]
 * ```
 */
export function constraintTracker(options: { skip?: number } = {}): ConstraintTracker {
  const out: string[] = [];
  const seen = new Set<string>();
  let messages = 0;
  let closed = false;
  const push = (text: string) => {
    const key = text.toLowerCase().replace(/\s+/g, " ");
    if (seen.has(key) || out.length >= MAX_CONSTRAINTS) return;
    seen.add(key);
    out.push(text);
  };
  return {
    add(row: TranscriptRow): void {
      if (closed || out.length >= MAX_CONSTRAINTS) return;
      const text = typedUserText(row) ?? queuedUserText(row);
      if (text === undefined) return;
      messages++;
      if (messages <= (options.skip ?? 0) || text.length > MAX_MESSAGE_CHARS) return;
      for (const sentence of ruleSentences(text)) push(sentence);
    },
    older(constraints: readonly string[]): void {
      if (closed) return;
      closed = true;
      for (const c of constraints) push(c);
    },
    full: () => closed || out.length >= MAX_CONSTRAINTS,
    result: () => out.slice(),
  };
}

/** The sentences of `text` that state a rule, in order, redacted and capped. */
function ruleSentences(text: string): string[] {
  const found: string[] = [];
  for (const raw of text.split(/(?<=[.!;])\s+|\n+/)) {
    const s = oneLine(raw).replace(/^[-*•>\s]+/, "");
    if (s.length < 12 || s.endsWith("?") || !RULES.some((r) => r.test(s))) continue;
    found.push(cutText(redact(s), MAX_CONSTRAINT_CHARS));
  }
  return found;
}
