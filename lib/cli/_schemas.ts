import type { JsonSchema } from "../schema/validate_schema.ts";
import checkpoint from "../../schemas/checkpoint.v1.json" with { type: "json" };
import compactionRecord from "../../schemas/compaction_record.v1.json" with { type: "json" };
import { configSchema } from "../config/config_schema.ts";
import contextMonitorState from "../../schemas/context_monitor_state.v1.json" with { type: "json" };
import fillWarningState from "../../schemas/fill_warning_state.v1.json" with { type: "json" };
import { precompactStateSchema } from "../projects/precompact_state_schema.ts";
import rereadMarker from "../../schemas/reread_marker.v1.json" with { type: "json" };
import quietPromptMemo from "../../schemas/quiet_prompt_memo.v1.json" with { type: "json" };
import { resumeContextSchema } from "../projects/resume_context_schema.ts";
import { restoreRecordSchema } from "../delivery/restore_record_schema.ts";
import sessionRecord from "../../schemas/session_record.v1.json" with { type: "json" };
import sessionRole from "../../schemas/session_role.v1.json" with { type: "json" };
import { sessionSnapshotSchema } from "../session/session_snapshot_schema.ts";

/**
 * Every JSON Schema rehydrate reads or writes, by name. `schemas/*.json` are the one source: the
 * bundler inlines them into the binaries (which cannot read `schemas/` at run time), and the
 * sources import the same files under Bun and Deno.
 *
 * @example
 * ```ts
 * import { validateSchema } from "../schema/validate_schema.ts";
 * validateSchema(SCHEMAS.checkpoint, JSON.parse(text));
 * ```
 */
export const SCHEMAS: Readonly<Record<SchemaName, JsonSchema>> = {
  checkpoint: checkpoint as JsonSchema,
  compaction_record: compactionRecord as JsonSchema,
  config: configSchema() as JsonSchema,
  context_monitor_state: contextMonitorState as JsonSchema,
  fill_warning_state: fillWarningState as JsonSchema,
  precompact_state: precompactStateSchema(),
  quiet_prompt_memo: quietPromptMemo as JsonSchema,
  reread_marker: rereadMarker as JsonSchema,
  restore_record: restoreRecordSchema(),
  resume_context: resumeContextSchema(),
  session_record: sessionRecord as JsonSchema,
  session_role: sessionRole as JsonSchema,
  session_snapshot: sessionSnapshotSchema(),
};

/** The names of {@linkcode SCHEMAS}: `schemas/<name>.v1.json`. */
export type SchemaName =
  | "checkpoint"
  | "compaction_record"
  | "config"
  | "context_monitor_state"
  | "fill_warning_state"
  | "precompact_state"
  | "quiet_prompt_memo"
  | "reread_marker"
  | "restore_record"
  | "resume_context"
  | "session_record"
  | "session_role"
  | "session_snapshot";
