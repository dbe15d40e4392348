// The schema of PreCompact's `precompact_state.json` (schemas/precompact_state.v1.json), imported
// on its own rather than through lib/schemas.ts, for the reason given in _resume_context_schema.ts.
import precompactState from "../schemas/precompact_state.v1.json" with { type: "json" };
import type { JsonSchema } from "./validate_schema.ts";

/** JSON Schema (draft 2020-12) of `precompact_state.json`. */
export const PRECOMPACT_STATE_SCHEMA: JsonSchema = precompactState as JsonSchema;
