// The schema of the restore records (schemas/restore_record.v1.json), imported on its own and as
// text parsed on first use, for the reasons given in lib/projects/resume_context_schema.ts.
import text from "../../schemas/restore_record.v1.json" with { type: "text" };
import type { JsonSchema } from "../schema/validate_schema.ts";

let parsed: JsonSchema | undefined;

/**
 * JSON Schema (draft 2020-12) of a restore record, parsed once on the first call.
 *
 * @example
 * ```ts
 * import { validateSchema } from "../schema/validate_schema.ts";
 * const issues = validateSchema(restoreRecordSchema(), JSON.parse(text));
 * ```
 */
export function restoreRecordSchema(): JsonSchema {
  return (parsed ??= JSON.parse(text) as JsonSchema);
}
