import { parseFrontmatter } from "../yaml/parse_frontmatter.ts";
import { markdownHeading } from "../yaml/markdown_heading.ts";
import { readUserFile } from "../state/files.ts";

/** What {@linkcode dispatchFile} found in a dispatch file. */
export interface DispatchFile {
  /** The path read. */
  path: string;
  /** First `# ` heading or frontmatter `title`, or null. */
  title: string | null;
  /**
   * The status, normalised: lower case, spaces and underscores as `-`, a
   * trailing `(…)` note dropped (`**Status:** In progress (since Monday)` →
   * `in-progress`). Null when the file states none.
   */
  status: string | null;
  /** True when the status is stated and is not a finished one (see {@linkcode FINISHED_STATUSES}). */
  active: boolean;
  /** The `## Contract` section, else everything before `## Progress` (frontmatter excluded), trimmed. */
  contract: string;
  /** The non-empty lines of the `## Progress` section, oldest first. */
  progress: string[];
}

/** Options for {@linkcode dispatchFile}. */
export interface DispatchFileOptions {
  /** Most bytes read; the rest is ignored. Default 256 KiB. */
  maxBytes?: number;
}

/** Statuses that mean the dispatch is over; any other stated status is active. */
export const FINISHED_STATUSES: ReadonlySet<string> = new Set([
  "done",
  "complete",
  "completed",
  "closed",
  "cancelled",
  "canceled",
  "failed",
  "abandoned",
  "merged",
  "archived",
  "superseded",
  "resolved",
]);

// `Status: x`, `- **Status:** x`, `**Status**: x`, `| Status | x |` are all seen in hand-written tickets.
// The value is what follows, without the whitespace and the one `|` that end the line: cut by
// statusValue(), not by a lazy `(.*?)\s*\|?\s*$`, which went back over trailing whitespace from every
// character of the value (issue #36, N3).
const STATUS_LINE = /^\s*(?:[-*]\s+)?(?:\|\s*)?(?:\*\*|__)?status(?:\*\*|__)?\s*(?::|\|)\s*(?:\*\*|__)?\s*:?\s*/i;
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const EMPHASIS = /[*_`]/g;
// A trailing note after the status word: ` (since Monday)`, ` [x]`, ` — waiting`, ` - blocked on y`.
const NOTE = /\s[(\[—–]|\s-\s/;
const SEPARATORS = /[\s_]+/g;
const EDGE_DASHES = /^-+|-+$/g;

/**
 * Reads a handler/worker dispatch file (docs/dispatch.md, "dispatch as
 * ticket"): a markdown file holding the worker's contract, a status, and a
 * `## Progress` section the worker appends to after each milestone. The
 * status comes from frontmatter (`status:`), else from the first
 * `Status: …` line (bold and list forms too) or `## Status` section before
 * `## Progress`. Returns null when the file is missing, not a regular file or
 * unreadable. Never throws.
 *
 * @example
 * ```ts
 * const d = dispatchFile("/home/a/dev-org/docs/handler-dispatches/fix-login.md");
 * if (d?.active) console.log(d.status, d.progress.at(-1));
 * ```
 */
export function dispatchFile(path: string, options: DispatchFileOptions = {}): DispatchFile | null {
  const raw = readUserFile(path, options.maxBytes ?? 256 * 1024);
  if (raw === null) return null;
  let text = raw.replace(/\r\n?/g, "\n");
  let title: string | null = null;
  let status: string | null = null;
  const fm = parseFrontmatter(text);
  if (fm.value && fm.value.data) {
    for (const [k, v] of Object.entries(fm.value.data)) {
      const key = k.toLowerCase();
      if (key === "status" && (typeof v === "string" || typeof v === "number")) status = normaliseStatus(String(v));
      if (key === "title" && typeof v === "string" && v.trim()) title = v.trim();
    }
    text = fm.value.body;
  }
  const lines = text.split("\n");
  const progress: string[] = [];
  const before: string[] = [];
  const contractLines: string[] = [];
  let section = "";
  let seenProgress = false;
  let statusSectionPending = false;
  for (const line of lines) {
    const h = markdownHeading(line);
    // Level 1 and 2 headings open sections; deeper ones belong to the section they are in.
    if (h && h.level <= 2) {
      if (h.level === 1 && title === null) title = h.text.trim();
      section = h.text.replace(EMPHASIS, "").trim().toLowerCase();
      if (section === "progress") seenProgress = true;
      statusSectionPending = section === "status" && status === null;
      if (!seenProgress) before.push(line);
      continue;
    }
    if (section === "progress") {
      const t = line.trim();
      if (t) progress.push(t);
      continue;
    }
    if (section === "contract") contractLines.push(line);
    if (seenProgress) continue;
    before.push(line);
    if (status !== null) continue;
    if (statusSectionPending) {
      if (line.trim()) {
        status = normaliseStatus(line);
        statusSectionPending = false;
      }
      continue;
    }
    const value = statusValue(line);
    if (value) status = normaliseStatus(value);
  }
  const contract = (contractLines.length > 0 ? contractLines : before).join("\n").trim();
  return { path, title, status, active: status !== null && !FINISHED_STATUSES.has(status), contract, progress };
}

/** The value of a `Status: x` line (bold, list and table forms too), or null for another line. */
function statusValue(line: string): string | null {
  const m = STATUS_LINE.exec(line);
  if (m === null) return null;
  let value = line.slice(m[0].length).trimEnd();
  if (value.endsWith("|")) value = value.slice(0, -1).trimEnd();
  return LINE_BREAK.test(value) ? null : value;
}

function normaliseStatus(value: string): string | null {
  let s = value.replace(EMPHASIS, " ").trim();
  const note = s.search(NOTE);
  if (note > 0) s = s.slice(0, note);
  s = s.trim().toLowerCase().replace(SEPARATORS, "-").replace(EDGE_DASHES, "");
  return s === "" ? null : s;
}
