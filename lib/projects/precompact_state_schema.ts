// The schema of PreCompact's `precompact_state.json` (schemas/precompact_state.v1.json), imported
// on its own and as text parsed on first use, for the reasons given in _resume_context_schema.ts.
import text from "../../schemas/precompact_state.v1.json" with { type: "text" };
import type { JsonSchema } from "../schema/validate_schema.ts";

let parsed: JsonSchema | undefined;

/**
 * JSON Schema (draft 2020-12) of `precompact_state.json`, parsed once on the first call.
 *
 * @example
 * ```ts
 * import { validateSchema } from "../schema/validate_schema.ts";
 * const issues = validateSchema(precompactStateSchema(), JSON.parse(text));
 * ```
 */
export function precompactStateSchema(): JsonSchema {
  return (parsed ??= JSON.parse(text) as JsonSchema);
}
