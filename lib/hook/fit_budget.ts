/**
 * Claude Code replaces any single piece of hook text (additionalContext, stdout, systemMessage)
 * longer than this many characters with a 2 KB preview and a file path.
 */
export const CLAUDE_CODE_HOOK_TEXT_LIMIT = 10_000;

/** One candidate section of injected context. */
export interface BudgetSection {
  /** Reported back in the result; need not be unique, but reports are easier to read if it is. */
  id: string;
  /** Lower is more important. Ties keep input order. */
  priority: number;
  /** The full text of the section. */
  text: string;
  /** May the text be cut (at a line boundary) when it does not fit whole? Default `false`. */
  truncatable?: boolean;
  /** A cut keeps at least this many characters of `text` (marker excluded), or none. Default `1`. */
  minChars?: number;
  /** Short form used when the text does not fit, e.g. `<file path="a.ts" action="read"/>`. */
  fallback?: string;
}

/** Options for {@linkcode fitBudget}. */
export interface FitBudgetOptions {
  /** Upper bound on the length of the joined result, in UTF-16 code units. */
  maxChars: number;
  /** Joins the chosen sections; its length counts toward the budget. Default `"\n"`. */
  separator?: string;
  /** Text appended to a cut section. Default `` n => `\n[… truncated ${n} chars]` ``. */
  truncationMarker?: (droppedChars: number) => string;
}

/** A section that made it into the result, in input order. */
export interface IncludedSection {
  id: string;
  /** `full` text, a `truncated` cut of it, or its `fallback`. */
  mode: "full" | "truncated" | "fallback";
  /** The text placed in the result. */
  text: string;
}

/** A section whose full text is not in the result. */
export interface DroppedSection {
  id: string;
  priority: number;
  /** Length of the full text that did not fit. */
  chars: number;
  /** True when its fallback was included instead. */
  fallback: boolean;
}

/** A section that was cut to fit. */
export interface TruncatedSection {
  id: string;
  /** Characters of the original text kept (the marker not counted). */
  keptChars: number;
  /** Characters of the original text left out. */
  droppedChars: number;
}

/** Result of {@linkcode fitBudget}. */
export interface FitBudgetResult {
  /** Included sections in input order (full, truncated or fallback). */
  included: IncludedSection[];
  /** Sections whose full text was left out, in priority order. */
  dropped: DroppedSection[];
  /** Sections that were cut, in priority order. */
  truncated: TruncatedSection[];
  /** The included texts joined with the separator. */
  text: string;
  /** `text.length`; never more than `maxChars`. */
  usedChars: number;
}

function defaultMarker(droppedChars: number): string {
  return `\n[… truncated ${droppedChars} chars]`;
}

/**
 * Chooses what to inject within a character budget, most important sections first.
 *
 * Sections are visited by priority (lower first, ties in input order). Each one is, in order of
 * preference: included whole if it fits; cut at the last line boundary that fits, with a marker
 * appended, if it is `truncatable` and at least `minChars` of it survive (a text whose first line
 * alone is too long is cut inside the line, never inside a surrogate pair); replaced by its
 * `fallback` if that fits (reported in `dropped` with `fallback: true`); or dropped. Later,
 * smaller sections may still fill the space a large one could not use. The separator between
 * chosen sections counts toward the budget, and the result keeps input order, so priority and
 * position in the document are independent.
 *
 * Throws a `RangeError` when `maxChars` is negative or NaN (a programming error).
 *
 * @example
 * ```ts
 * import { fitBudget } from "./fit_budget.ts";
 * const result = fitBudget([
 *   { id: "header", priority: 0, text: "<nexus-context>" },
 *   { id: "plan", priority: 2, text: "x".repeat(500), fallback: '<file path="plan.md" action="read"/>' },
 *   { id: "goals", priority: 1, text: "Ship v1" },
 * ], { maxChars: 100 });
 * result.text; // '<nexus-context>\n<file path="plan.md" action="read"/>\nShip v1'
 * result.dropped; // [{ id: "plan", priority: 2, chars: 500, fallback: true }]
 * ```
 */
export function fitBudget(sections: readonly BudgetSection[], options: FitBudgetOptions): FitBudgetResult {
  const maxChars = options.maxChars;
  if (!(maxChars >= 0)) throw new RangeError(`Invalid maxChars: ${maxChars}`);
  const separator = options.separator ?? "\n";
  const marker = options.truncationMarker ?? defaultMarker;

  const order = sections.map((_, i) => i);
  order.sort((a, b) => sections[a].priority - sections[b].priority || a - b);

  const chosen: (IncludedSection | undefined)[] = new Array(sections.length);
  const dropped: DroppedSection[] = [];
  const truncated: TruncatedSection[] = [];
  let used = 0;
  let count = 0;

  for (const i of order) {
    const section = sections[i];
    const sep = count > 0 ? separator.length : 0;
    const room = maxChars - used - sep;
    const text = section.text;
    let pick: IncludedSection | undefined;
    if (text.length <= room) {
      pick = { id: section.id, mode: "full", text };
    } else {
      if (section.truncatable && room > 0) {
        const cut = cutToFit(text, room, Math.max(1, section.minChars ?? 1), marker);
        if (cut !== undefined) {
          pick = { id: section.id, mode: "truncated", text: cut.text };
          truncated.push({ id: section.id, keptChars: cut.kept, droppedChars: text.length - cut.kept });
        }
      }
      if (pick === undefined) {
        const fallback = section.fallback;
        const useFallback = fallback !== undefined && fallback.length <= room;
        dropped.push({ id: section.id, priority: section.priority, chars: text.length, fallback: useFallback });
        if (useFallback) pick = { id: section.id, mode: "fallback", text: fallback };
      }
    }
    if (pick !== undefined) {
      chosen[i] = pick;
      used += sep + pick.text.length;
      count++;
    }
  }

  const included: IncludedSection[] = [];
  for (const pick of chosen) if (pick !== undefined) included.push(pick);
  const joined = included.map((s) => s.text).join(separator);
  return { included, dropped, truncated, text: joined, usedChars: joined.length };
}

/** The longest line-boundary prefix of `text` that fits in `room` with its marker, if any. */
function cutToFit(
  text: string,
  room: number,
  minChars: number,
  marker: (droppedChars: number) => string,
): { text: string; kept: number } | undefined {
  // The marker only gets shorter as more is kept, so sizing it for "everything dropped" is safe.
  let limit = room - marker(text.length).length;
  if (limit < minChars) return undefined;
  // Prefer the end of a line: the last "\n" at or before the limit ends the kept part.
  let kept = text.lastIndexOf("\n", limit);
  if (kept < minChars) {
    kept = limit;
    const code = text.charCodeAt(kept - 1);
    if (code >= 0xd800 && code <= 0xdbff) kept--;
    if (kept < minChars) return undefined;
  }
  let out = text.slice(0, kept) + marker(text.length - kept);
  // A custom marker may grow with fewer dropped characters; shrink until it fits.
  while (out.length > room && kept > minChars) {
    limit = kept - (out.length - room);
    kept = Math.max(minChars, limit);
    out = text.slice(0, kept) + marker(text.length - kept);
  }
  return out.length <= room ? { text: out, kept } : undefined;
}
