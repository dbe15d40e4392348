// Private helper of lib/projects/read_manifest.ts, lib/cli/validate.ts and lib/cli/migrate.ts: parse manifest text
// and validate its frontmatter against schemas/resume_context.v1.json, with a line per problem.
import { parseFrontmatter } from "../yaml/parse_frontmatter.ts";
import { validateSchema } from "../schema/validate_schema.ts";
import { resumeContextSchema } from "./resume_context_schema.ts";
import { fieldName, issueSegments, type LocatedIssue, locateYaml } from "./locate.ts";
import type { ResumeContext } from "./read_manifest.ts";

/** Result of {@linkcode checkManifestText}. */
export type CheckManifestResult =
  | {
    ok: true;
    data: ResumeContext;
    lineOf: (segs: readonly string[]) => number;
    /** The text after the frontmatter (the validation gate, in the design's manifests). */
    body: string;
    /**
     * Legacy input only: what was filled in or read leniently, one phrase each (`project_id`
     * from the folder name, ...). Empty for a manifest that passes the schema as written.
     */
    legacy: LegacyFill[];
  }
  | { ok: false; problem: "invalid_frontmatter" | "invalid_manifest"; issues: LocatedIssue[] };

/** One field a legacy manifest lacked, with the value read in its place. */
export interface LegacyFill {
  field: "resume_schema_version" | "project_id" | "project_name" | "current_phase" | "next_action" | "last_updated";
  /** The value used; `null` for a field left unset (`resume_schema_version`, `last_updated`). */
  value: string | null;
  /** Where it came from, for `rehydrate validate`. */
  note: string;
}

/** Options of {@linkcode checkManifestText}. */
export interface CheckManifestOptions {
  /**
   * Read the text as a legacy hand-written `_resume.md`: only `files_to_load` is required (the
   * design's own SessionStart read nothing else); a missing `project_id` and `project_name` are
   * the project folder's name (when it is `NN-kebab-case`), `next_action` is `execute-project`,
   * `current_phase` is left to the steps file (`planning` without one, docs/projects.md), and the
   * version and `last_updated` stay unset. Fields that are present must still be valid.
   */
  legacyFolder?: string;
}

const PROJECT_ID = /^\d{2}-[a-z0-9-]+$/;
/** The required fields a legacy manifest may leave out; `files_to_load` is not among them. */
const FILLABLE = new Set(["project_id", "project_name", "current_phase", "next_action", "last_updated"]);

/**
 * Parses manifest text and validates its frontmatter against the schema, with a line for each
 * problem. Shared with `rehydrate validate` and `rehydrate migrate`. With `legacyFolder`, a
 * legacy `_resume.md` that lacks fields the strict schema requires is accepted, and `legacy` says
 * what was filled in.
 *
 * @example
 * ```ts
 * const r = checkManifestText("---\nfiles_to_load: [01-planning/steps.md]\n---\n", { legacyFolder: "03-notes" });
 * if (r.ok) console.log(r.data.project_id, r.legacy.map((f) => f.field)); // 03-notes [...]
 * ```
 */
export function checkManifestText(text: string, options: CheckManifestOptions = {}): CheckManifestResult {
  const fm = parseFrontmatter(text);
  if (fm.errors.length > 0 || fm.value === null) {
    return {
      ok: false,
      problem: "invalid_frontmatter",
      issues: fm.errors.map((e) => ({ line: e.line, field: "frontmatter", code: e.code, message: e.message })),
    };
  }
  if (fm.value.data === null) {
    return {
      ok: false,
      problem: "invalid_frontmatter",
      issues: [{
        line: 1,
        field: "frontmatter",
        code: "NO_FRONTMATTER",
        message: "Cannot find frontmatter: the file must start with a --- line",
      }],
    };
  }
  const lines = text.split("\n");
  // Frontmatter runs from line 2 to the line before the closing fence (bodyLine - 2, 1-based).
  const end = Math.max(1, fm.value.bodyLine - 2);
  const lineOf = (segs: readonly string[]): number => locateYaml(lines, segs, 1, end, 1);
  const data = fm.value.data;
  const issues: LocatedIssue[] = [];
  const legacy: LegacyFill[] = [];
  const folder = options.legacyFolder;
  const canFill = folder !== undefined && Array.isArray(data.files_to_load);
  for (const issue of validateSchema(resumeContextSchema(), data)) {
    if (canFill && issue.keyword === "anyOf" && issue.path === "") {
      legacy.push({ field: "resume_schema_version", value: null, note: "no resume_schema_version" });
      continue;
    }
    const missing = issue.keyword === "required" && issue.path === "" ? issueSegments(issue)[0] : undefined;
    if (canFill && missing !== undefined && FILLABLE.has(missing)) {
      const fill = legacyValue(missing as LegacyFill["field"], folder, data);
      if (fill !== null) {
        legacy.push(fill);
        continue;
      }
    }
    if (issue.keyword === "anyOf" && issue.path === "") {
      issues.push({
        line: 1,
        field: "resume_schema_version",
        code: "required",
        message: "Missing required property resume_schema_version (or the legacy resume_version)",
      });
      continue;
    }
    const segs = issueSegments(issue);
    issues.push({
      line: issue.keyword === "required" ? 1 : lineOf(segs),
      field: fieldName(segs),
      code: issue.keyword,
      message: issue.message,
    });
  }
  if (issues.length > 0) return { ok: false, problem: "invalid_manifest", issues };
  if (legacy.length === 0) return { ok: true, data: data as ResumeContext, lineOf, body: fm.value.body, legacy };
  const filled: Record<string, unknown> = { ...data };
  for (const f of legacy) if (f.value !== null) filled[f.field] = f.value;
  return { ok: true, data: filled as ResumeContext, lineOf, body: fm.value.body, legacy };
}

/** The value a legacy manifest's missing field is read as, or null when there is none. */
function legacyValue(field: LegacyFill["field"], folder: string, data: Record<string, unknown>): LegacyFill | null {
  switch (field) {
    case "project_id":
      return PROJECT_ID.test(folder) ? { field, value: folder, note: "project_id from the folder name" } : null;
    case "project_name": {
      const id = typeof data.project_id === "string" ? data.project_id : folder;
      return { field, value: id, note: "project_name from the project id" };
    }
    case "current_phase":
      return { field, value: "planning", note: "no current_phase (the steps file decides)" };
    case "next_action":
      return { field, value: "execute-project", note: "next_action execute-project" };
    case "last_updated":
      return { field, value: null, note: "no last_updated" };
    default:
      return null;
  }
}

const HEADING = /^(#{1,6})\s+(.*)$/;
const GATE_HEADING = /validation|gate|before (?:you )?continu/i;
const THEMATIC_BREAK = /^\s{0,3}(?:-{3,}|\*{3,}|_{3,})\s*$/;

/**
 * The manifest body's validation gate (the design's "Before continuing, make sure you can
 * answer: ..." with its checklist), cut to `maxChars` at a line end: the section under the
 * first heading that names a validation, a gate or "before continuing", up to the next heading
 * of the same or a higher level or a `---` line; without such a heading, the body up to its
 * first `---` line. `null` when that is empty. The text is the user's: callers quote it as data.
 *
 * @example
 * ```ts
 * validationGate("# Validation gate\n\n1. What problem are we solving?\n---\n*footer*\n", 1200);
 * // "# Validation gate\n\n1. What problem are we solving?"
 * ```
 */
export function validationGate(body: string, maxChars: number): string | null {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  let start = -1;
  let level = 7;
  for (let i = 0; i < lines.length; i++) {
    const h = HEADING.exec(lines[i]);
    if (h && GATE_HEADING.test(h[2])) {
      start = i;
      level = h[1].length;
      break;
    }
  }
  const out: string[] = [];
  for (let i = Math.max(0, start); i < lines.length; i++) {
    if (THEMATIC_BREAK.test(lines[i])) break;
    const h = i > start && start >= 0 ? HEADING.exec(lines[i]) : null;
    if (h && h[1].length <= level) break;
    out.push(lines[i]);
  }
  let text = out.join("\n").trim();
  if (text === "" || maxChars <= 0) return null;
  if (text.length > maxChars) {
    const nl = text.lastIndexOf("\n", maxChars);
    text = `${text.slice(0, nl > maxChars / 2 ? nl : maxChars)}\n[… cut here: read the manifest for the rest]`;
  }
  return text;
}
