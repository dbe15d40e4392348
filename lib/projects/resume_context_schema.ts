// The schema of a `resume-context.md` manifest's frontmatter (schemas/resume_context.v1.json),
// imported on its own rather than through lib/cli/_schemas.ts (a hook that reads manifests needs no
// other schema: building the other eight schema objects at start-up was a measurable cost of the
// project hooks, bench/README.md, "What start-up pays for"), and as text parsed on first use (a
// string costs nothing at start-up; most prompts read no manifest).
import text from "../../schemas/resume_context.v1.json" with { type: "text" };
import type { JsonSchema } from "../schema/validate_schema.ts";

let parsed: JsonSchema | undefined;

/**
 * JSON Schema (draft 2020-12) of `resume-context.md` frontmatter, parsed once on the first call.
 *
 * @example
 * ```ts
 * import { validateSchema } from "../schema/validate_schema.ts";
 * const issues = validateSchema(resumeContextSchema(), { project_id: "01-x" });
 * ```
 */
export function resumeContextSchema(): JsonSchema {
  return (parsed ??= JSON.parse(text) as JsonSchema);
}
