// The schema of a `resume-context.md` manifest's frontmatter (schemas/resume_context.v1.json),
// imported on its own rather than through lib/schemas.ts: a hook that reads manifests needs no
// other schema, and building the other eight schema objects at start-up cost the project hooks
// about 0.7 million instructions (valgrind, issue 6), the largest single item of their start-up.
import resumeContext from "../schemas/resume_context.v1.json" with { type: "json" };
import type { JsonSchema } from "./validate_schema.ts";

/** JSON Schema (draft 2020-12) of `resume-context.md` frontmatter. */
export const RESUME_CONTEXT_SCHEMA: JsonSchema = resumeContext as JsonSchema;
