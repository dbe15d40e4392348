// Private helper of lib/cli/validate.ts, lib/cli/migrate.ts and lib/projects/read_manifest.ts: turns a schema issue's
// JSON pointer into the `field` and the 1-based `line` of a report line. Schema validation works on
// parsed values, which carry no positions, so the line is found again in the source text: good
// enough for the flat documents we check (manifest frontmatter, our state files).
import type { SchemaIssue } from "../schema/validate_schema.ts";

/** One problem, ready to print as `file:line: field: message`. */
export interface LocatedIssue {
  /** 1-based line in the file. */
  line: number;
  /** `files_to_load[2]`, `current_phase`, or `""` for the whole document. */
  field: string;
  /** The schema keyword or parser code that failed. */
  code: string;
  /** Sentence case, no trailing period. */
  message: string;
}

const REQUIRED = /property (\S+)$/;

/** Pointer segments of an issue; a `required` issue points at the missing property. */
export function issueSegments(issue: SchemaIssue): string[] {
  const segs = issue.path === ""
    ? []
    : issue.path.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (issue.keyword === "required") {
    const m = REQUIRED.exec(issue.message);
    if (m) segs.push(m[1]);
  }
  return segs;
}

/** `["files_to_load", "2"]` → `files_to_load[2]`. */
export function fieldName(segs: readonly string[]): string {
  let out = "";
  for (const s of segs) out += /^\d+$/.test(s) ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Line of the value at `segs` in YAML `lines` (0-based array), searching from `from` to `to`
 * (exclusive), or `fallback` when it cannot be found. Keys are matched at any indentation after
 * the previous match; a numeric segment counts list items (`- `) after it.
 */
export function locateYaml(
  lines: readonly string[],
  segs: readonly string[],
  from: number,
  to: number,
  fallback: number,
): number {
  let at = -1;
  let pos = from;
  for (const seg of segs) {
    if (/^\d+$/.test(seg) && at >= 0) {
      let n = Number(seg);
      let found = -1;
      for (let i = at + 1; i < to; i++) {
        if (/^\s*-(\s|$)/.test(lines[i])) {
          if (n-- === 0) {
            found = i;
            break;
          }
        } else if (/^\S/.test(lines[i])) break;
      }
      if (found < 0) break;
      at = found;
      pos = found + 1;
      continue;
    }
    const key = new RegExp(`^\\s*(?:-\\s+)?["']?${escapeRegExp(seg)}["']?\\s*:`);
    let found = -1;
    for (let i = pos; i < to; i++) {
      if (key.test(lines[i])) {
        found = i;
        break;
      }
    }
    if (found < 0) break;
    at = found;
    pos = found + 1;
  }
  return at >= 0 ? at + 1 : fallback;
}

/** Line of the value at `segs` in JSON text, or 1. Numeric segments are skipped. */
export function locateJson(text: string, segs: readonly string[]): number {
  let pos = 0;
  let hit = -1;
  for (const seg of segs) {
    if (/^\d+$/.test(seg)) continue;
    const re = new RegExp(`"${escapeRegExp(JSON.stringify(seg).slice(1, -1))}"\\s*:`, "g");
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) break;
    hit = m.index;
    pos = m.index + m[0].length;
  }
  if (hit < 0) return 1;
  let line = 1;
  for (let i = 0; i < hit; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
