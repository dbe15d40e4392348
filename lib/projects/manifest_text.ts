// Private helper of lib/projects/read_manifest.ts, lib/cli/validate.ts and lib/cli/migrate.ts: parse manifest text
// and validate its frontmatter against schemas/resume_context.v1.json, with a line per problem.
import { parseFrontmatter } from "../yaml/parse_frontmatter.ts";
import { validateSchema } from "../schema/validate_schema.ts";
import { resumeContextSchema } from "./resume_context_schema.ts";
import { fieldName, issueSegments, type LocatedIssue, locateYaml } from "./locate.ts";
import type { ResumeContext } from "./read_manifest.ts";

/** Result of {@linkcode checkManifestText}. */
export type CheckManifestResult =
  | { ok: true; data: ResumeContext; lineOf: (segs: readonly string[]) => number }
  | { ok: false; problem: "invalid_frontmatter" | "invalid_manifest"; issues: LocatedIssue[] };

/**
 * Parses manifest text and validates its frontmatter against the schema, with a line for each
 * problem. Shared with `rehydrate validate` and `rehydrate migrate`.
 */
export function checkManifestText(text: string): CheckManifestResult {
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
  for (const issue of validateSchema(resumeContextSchema(), data)) {
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
  return { ok: true, data: data as ResumeContext, lineOf };
}
