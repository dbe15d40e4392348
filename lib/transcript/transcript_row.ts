/**
 * Shapes of the rows of a Claude Code transcript (JSONL, one JSON object per line), as far as
 * rehydrate reads them. Every field is optional and unverified: a row is whatever `JSON.parse`
 * returned, so code reading a field checks its type first. Field names follow the file
 * (camelCase envelope, snake_case API `message`). See `claude-code-hooks.md` section (e).
 *
 * @module
 */

/** One step of a server-side tool loop inside one API response (`usage.iterations`). */
export interface TranscriptUsageIteration {
  /** `"message"` or `"compaction"`; compaction steps do not describe the context. */
  type?: string;
  input_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens?: number;
  [key: string]: unknown;
}

/** Token usage of one API response, repeated on every row of that response. */
export interface TranscriptUsage {
  input_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  /** May grow between the rows of one response. */
  output_tokens?: number;
  iterations?: TranscriptUsageIteration[];
  [key: string]: unknown;
}

/** One content block: `text`, `thinking`, `tool_use`, `tool_result`, `image`, … */
export interface TranscriptContentBlock {
  type?: string;
  text?: string;
  /** `tool_use` block id (`toolu_…`). */
  id?: string;
  /** `tool_use` tool name. */
  name?: string;
  /** `tool_use` input object. */
  input?: unknown;
  /** `tool_result` block: the id of the `tool_use` it answers. */
  tool_use_id?: string;
  content?: unknown;
  [key: string]: unknown;
}

/** The API message carried by `user` and `assistant` rows. */
export interface TranscriptMessage {
  /** `msg_…` on assistant rows; shared by all rows of one API response. */
  id?: string;
  role?: string;
  /** `"<synthetic>"` on API-error rows written by the client itself. */
  model?: string;
  content?: string | TranscriptContentBlock[];
  usage?: TranscriptUsage;
  stop_reason?: string | null;
  [key: string]: unknown;
}

/** `compactMetadata` of a `system`/`compact_boundary` row (camelCase in the JSONL). */
export interface TranscriptCompactMetadata {
  trigger?: string;
  preTokens?: number;
  /** Written by newer clients only (absent in 2.0.x and 2.1.39 files). */
  postTokens?: number;
  durationMs?: number;
  [key: string]: unknown;
}

/** One parsed transcript line. Only JSON objects are rows; arrays and scalars are skipped. */
export interface TranscriptRow {
  /** `user`, `assistant`, `attachment`, `system`, `progress`, or a metadata type. */
  type?: string;
  /** On `system` rows: `compact_boundary`, `turn_duration`, `local_command`, … */
  subtype?: string;
  uuid?: string;
  parentUuid?: string | null;
  /** On a compact boundary: the last row before the compaction. */
  logicalParentUuid?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  isApiErrorMessage?: boolean;
  isCompactSummary?: boolean;
  timestamp?: string;
  sessionId?: string;
  requestId?: string;
  message?: TranscriptMessage;
  compactMetadata?: TranscriptCompactMetadata;
  toolUseResult?: unknown;
  /** On `progress` rows; `agent_progress` embeds a subagent's messages and usage here. */
  data?: unknown;
  [key: string]: unknown;
}
