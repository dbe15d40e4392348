// The schema of the session snapshot (schemas/session_snapshot.v1.json), imported on its own and
// as text parsed on first use, for the reasons given in lib/projects/resume_context_schema.ts.
import text from "../../schemas/session_snapshot.v1.json" with { type: "text" };
import type { JsonSchema } from "../schema/validate_schema.ts";

let parsed: JsonSchema | undefined;

/**
 * JSON Schema (draft 2020-12) of the session snapshot, parsed once on the first call.
 *
 * @example
 * ```ts
 * import { validateSchema } from "../schema/validate_schema.ts";
 * const issues = validateSchema(sessionSnapshotSchema(), JSON.parse(text));
 * ```
 */
export function sessionSnapshotSchema(): JsonSchema {
  return (parsed ??= JSON.parse(text) as JsonSchema);
}
