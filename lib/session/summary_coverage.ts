/** What a compaction summary already carries. */
export interface SummaryCoverage {
  /** True when the summary quotes the user's message: all of it, or for a long one its head and its tail. */
  quotes(text: string): boolean;
  /** True when the summary names the file: its file name as a word of its own. */
  names(path: string): boolean;
  /** True when the summary carries the task: its subject word for word, or most of its words. */
  carries(subject: string): boolean;
}

/** A message longer than this counts as quoted when its head and its tail both are. */
const LONG_MESSAGE = 300;
const EDGE = 150;
/** Share of a task subject's words the summary must hold to carry it in other words. */
const TASK_WORD_SHARE = 0.7;
const STOP_WORDS: ReadonlySet<string> = new Set(
  "the and for with this that from into then than them they their there have been will would could should " +
    "what when where which while about after before also only just more most some such very your ours".split(" "),
);

/**
 * What a compaction summary (Claude Code's `compact_summary`, or the summary row it writes after
 * the boundary) already carries, so that what is given back after it is only what it lacks. Case,
 * whitespace, markdown quoting (backticks, asterisks) and typographic quotes are ignored on both
 * sides; nothing is guessed beyond that: a message paraphrased is not quoted, a file named only by
 * a directory is not named.
 *
 * @example
 * ```ts
 * import { summaryCoverage } from "./summary_coverage.ts";
 * const covered = summaryCoverage("Pending Tasks:\n- Fix `src/format.js` rounding\nUser: \"now write the regression test\"");
 * covered.quotes("Now write the regression test"); // true
 * covered.names("src/format.js"); // true
 * covered.names("test/format.test.js"); // false
 * covered.carries("Fix rounding in src/format.js"); // true
 * ```
 */
export function summaryCoverage(summary: string): SummaryCoverage {
  const text = normalize(summary);
  let words: Set<string> | undefined;
  let tokens: Set<string> | undefined;
  return {
    quotes(message: string): boolean {
      const m = normalize(message);
      if (m === "") return true;
      if (m.length <= LONG_MESSAGE) return text.includes(m);
      return text.includes(m.slice(0, EDGE).trim()) && text.includes(m.slice(-EDGE).trim());
    },
    names(path: string): boolean {
      const name = path.slice(path.replaceAll("\\", "/").lastIndexOf("/") + 1).toLowerCase();
      if (name === "") return false;
      tokens ??= fileTokens(summary.toLowerCase());
      return tokens.has(name);
    },
    carries(subject: string): boolean {
      const s = normalize(subject);
      if (s === "" || text.includes(s)) return true;
      const own = contentWords(s);
      if (own.length === 0) return false;
      words ??= new Set(contentWords(text));
      let held = 0;
      for (const w of own) if (words.has(w)) held++;
      return held / own.length >= TASK_WORD_SHARE;
    },
  };
}

function normalize(s: string): string {
  return s.toLowerCase().replace(/[`*_"“”‘’]/g, " ").replace(/\s+/g, " ").trim();
}

function contentWords(s: string): string[] {
  return (s.match(/[\p{L}\p{N}]{4,}/gu) ?? []).filter((w) => !STOP_WORDS.has(w));
}

/** Every file name the summary writes: the last segment of each path-like token. */
function fileTokens(summary: string): Set<string> {
  const out = new Set<string>();
  for (const token of summary.match(/[\p{L}\p{N}_.@+~/\\-]+/gu) ?? []) {
    const clean = token.replace(/[.,;:!?)]+$/, "");
    const name = clean.slice(clean.replaceAll("\\", "/").lastIndexOf("/") + 1);
    if (name !== "") out.add(name);
  }
  return out;
}
