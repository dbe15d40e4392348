/**
 * Private helper of `rehydrate validate` and `rehydrate doctor`: the one shape of a problem in a
 * file, `FILE:LINE: FIELD: MESSAGE`, so the two verbs word the same problem the same way (issue
 * #37: doctor said `rehydrate.json#/session/fillWarnings/0: …` where validate said
 * `rehydrate.json:1: session.fillWarnings[0]: …`).
 *
 * @module
 */
import type { ConfigIssue } from "../config/load_config.ts";
import { fieldName, type LocatedIssue, locateJson } from "../projects/locate.ts";

/**
 * `FILE:LINE: FIELD: MESSAGE`, the field `(root)` for the whole file.
 *
 * @example
 * ```ts
 * problemLine(".claude/rehydrate.json", { line: 3, field: "session.fillWarnings", message: "Must be at most 1" });
 * // ".claude/rehydrate.json:3: session.fillWarnings: Must be at most 1"
 * ```
 */
export function problemLine(file: string, issue: Pick<LocatedIssue, "line" | "field" | "message">): string {
  return `${file}:${issue.line}: ${issue.field || "(root)"}: ${issue.message}`;
}

/**
 * A config issue located in its file's `text`: the line of its key (of the syntax error), the
 * dotted field (`session.fillWarnings[0]`), its code and message. Line 0 when the file could not be
 * read.
 *
 * @example
 * ```ts
 * locateConfigIssue(issue, text); // { line: 3, field: "session.fillWarnings", code: "maximum", message: "…" }
 * ```
 */
export function locateConfigIssue(issue: ConfigIssue, text: string | undefined): LocatedIssue {
  const segs = issue.path === ""
    ? []
    : issue.path.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const line = issue.line ?? (text === undefined ? 0 : segs.length === 0 ? 1 : locateJson(text, segs));
  return { line, field: fieldName(segs), code: issue.keyword ?? issue.code, message: issue.message };
}
