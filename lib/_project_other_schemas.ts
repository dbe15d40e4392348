// Generated from schemas/*.json by tests/unit/cli_validate.test.ts; UPDATE_GOLDEN=1 rewrites it.
// Do not edit: change the schema file and regenerate. Embedded because the compiled binaries
// cannot read schemas/ at run time.
import type { JsonSchema } from "./validate_schema.ts";

/** `schemas/checkpoint.v1.json`. */
export const CHECKPOINT_SCHEMA: JsonSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://rehydrate.dev/schemas/checkpoint.v1.json",
  "title": "cx-NNN-checkpoint.json",
  "description": "One compaction of an orchestration run (design note 003): written by PreCompact to <orchestration.stateDir>/checkpoints/cx-NNN-checkpoint.json from the ORCHESTRATION.yaml resumption section and the context-monitor state, completed by PostCompact with the summary, and turned into the compaction alert (Template 2) by the first UserPromptSubmit that finds it unacknowledged. Checkpoints are kept for the whole run as an audit trail.",
  "$comment": "additionalProperties is false at every level: rehydrate is the only writer. Values that could not be read are null and named in missing, so the alert can say what it does not know instead of the file failing validation.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "schema_version",
    "checkpoint_id",
    "created_at",
    "project",
    "orchestration_file",
    "trigger",
    "context_state",
    "orchestration_state",
    "recovery",
    "pending_decisions",
    "acknowledged",
    "acknowledged_at",
    "missing"
  ],
  "properties": {
    "schema_version": {
      "description": "Version of this file's shape.",
      "const": 1
    },
    "checkpoint_id": {
      "description": "cx-NNN, the same as in the file name; NNN counts up from 001 within the run and gives the alert's 'compaction N of M'.",
      "type": "string",
      "pattern": "^cx-\\d{3,}$"
    },
    "session_id": {
      "description": "Session that was compacted.",
      "type": "string",
      "minLength": 1
    },
    "compaction_id": {
      "description": "Opaque id of this compaction, shared with the session record so the alert is delivered once.",
      "type": "string",
      "minLength": 1
    },
    "created_at": {
      "description": "When PreCompact wrote the checkpoint.",
      "type": "string",
      "format": "date-time"
    },
    "project": {
      "description": "Project id from ORCHESTRATION.yaml (header.project_id), e.g. PROJ-001-oss-release; null when unknown.",
      "type": [
        "string",
        "null"
      ],
      "minLength": 1
    },
    "orchestration_file": {
      "description": "Path of the ORCHESTRATION.yaml the state was read from, relative to the project directory (the alert's ORCHESTRATION_YAML_PATH); null when none was found.",
      "type": [
        "string",
        "null"
      ],
      "minLength": 1
    },
    "trigger": {
      "description": "What caused the compaction and which hook recorded it (the alert's COMPACTION_TRIGGER, e.g. 'auto (PreCompact hook)').",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "type",
        "source"
      ],
      "properties": {
        "type": {
          "description": "PreCompact trigger: manual (/compact) or auto.",
          "enum": [
            "manual",
            "auto"
          ]
        },
        "source": {
          "description": "Hook that wrote the checkpoint: PreCompact normally, PostCompact when PreCompact left none.",
          "enum": [
            "PreCompact",
            "PostCompact"
          ]
        }
      }
    },
    "context_state": {
      "description": "Context fill just before compaction, from context-monitor-state.json or the transcript (the alert's PRE-COMPACTION FILL).",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "fill_fraction",
        "tokens",
        "window"
      ],
      "properties": {
        "fill_fraction": {
          "description": "tokens / window; may exceed 1 when the window was guessed too small. null when unknown.",
          "type": [
            "number",
            "null"
          ],
          "minimum": 0
        },
        "tokens": {
          "description": "Context tokens of the last assistant turn; null when unknown.",
          "type": [
            "integer",
            "null"
          ],
          "minimum": 0
        },
        "window": {
          "description": "Context window in tokens; null when unknown.",
          "type": [
            "integer",
            "null"
          ],
          "minimum": 1
        }
      }
    },
    "orchestration_state": {
      "description": "Where the run was, from the ORCHESTRATION.yaml resumption section and quality gates. Each field is null when it could not be read.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "workflow_id",
        "phase_number",
        "phase_name",
        "activity",
        "gate",
        "gate_iteration",
        "gate_score"
      ],
      "properties": {
        "workflow_id": {
          "description": "header.workflow_id, e.g. feat015-licmig-20260217-001.",
          "type": [
            "string",
            "null"
          ]
        },
        "workflow_status": {
          "description": "resumption.workflow_status, e.g. ACTIVE.",
          "type": [
            "string",
            "null"
          ]
        },
        "phase_number": {
          "description": "resumption.current_phase (the alert's ACTIVE_PHASE); a string when the YAML uses labels.",
          "type": [
            "integer",
            "string",
            "null"
          ]
        },
        "phase_name": {
          "description": "resumption.current_phase_name (ACTIVE_PHASE_NAME).",
          "type": [
            "string",
            "null"
          ]
        },
        "activity": {
          "description": "resumption.current_activity (ACTIVE_ACTIVITY), e.g. qg-2-iteration-1.",
          "type": [
            "string",
            "null"
          ]
        },
        "gate": {
          "description": "Current quality gate (CURRENT_GATE), e.g. qg-2.",
          "type": [
            "string",
            "null"
          ]
        },
        "gate_iteration": {
          "description": "Iteration of the current gate (CURRENT_GATE_ITERATION).",
          "type": [
            "integer",
            "null"
          ],
          "minimum": 0
        },
        "gate_score": {
          "description": "Last score of the current gate (CURRENT_GATE_SCORE), usually 0 to 1.",
          "type": [
            "number",
            "null"
          ]
        }
      }
    },
    "recovery": {
      "description": "What the resumed model needs first.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "critical_context",
        "next_action"
      ],
      "properties": {
        "critical_context": {
          "description": "One or two sentences on what was in progress (CRITICAL_CONTEXT_SUMMARY); null when nothing could be said.",
          "type": [
            "string",
            "null"
          ]
        },
        "next_action": {
          "description": "resumption.next_step (NEXT_ACTION); null when unknown.",
          "type": [
            "string",
            "null"
          ]
        }
      }
    },
    "pending_decisions": {
      "description": "Decisions not yet applied (resumption.decisions with applied: false), for PENDING_DECISIONS_SUMMARY.",
      "type": "array",
      "maxItems": 50,
      "items": {
        "$ref": "#/$defs/decision"
      }
    },
    "acknowledged": {
      "description": "False until the alert for this checkpoint has been delivered (or the model set it true as Template 2 asks).",
      "type": "boolean"
    },
    "acknowledged_at": {
      "description": "When it was acknowledged; null while unacknowledged.",
      "type": [
        "string",
        "null"
      ],
      "format": "date-time"
    },
    "missing": {
      "description": "What could not be read when the checkpoint was written, as field paths (orchestration_state.gate_score) or file names (ORCHESTRATION.yaml, context-monitor-state.json).",
      "type": "array",
      "uniqueItems": true,
      "items": {
        "type": "string",
        "minLength": 1
      }
    },
    "compact_summary": {
      "description": "The compaction summary, added by PostCompact (redacted, possibly shortened).",
      "type": "string"
    }
  },
  "$defs": {
    "decision": {
      "description": "One pending decision.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "summary"
      ],
      "properties": {
        "id": {
          "description": "Decision id, e.g. RD-001.",
          "type": "string",
          "minLength": 1
        },
        "summary": {
          "description": "What was decided.",
          "type": "string",
          "minLength": 1
        },
        "affects": {
          "description": "What the decision affects, e.g. Phase 3 header_template.",
          "type": "string"
        }
      }
    }
  }
};

/** `schemas/context_monitor_state.v1.json`. */
export const CONTEXT_MONITOR_STATE_SCHEMA: JsonSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://rehydrate.dev/schemas/context_monitor_state.v1.json",
  "title": "context-monitor-state.json",
  "description": "The context monitor's last reading (design note 003), written by UserPromptSubmit to <orchestration.stateDir>/context-monitor-state.json and read by PreCompact for the checkpoint's pre-compaction fill.",
  "$comment": "additionalProperties is false: rehydrate is the only writer.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "schema_version",
    "session_id",
    "level",
    "fill_fraction",
    "tokens",
    "window",
    "updated_at",
    "resumption_status"
  ],
  "properties": {
    "schema_version": {
      "description": "Version of this file's shape.",
      "const": 1
    },
    "session_id": {
      "description": "Session the reading belongs to.",
      "type": "string",
      "minLength": 1
    },
    "level": {
      "description": "Level for the fill fraction under orchestration.thresholds: below warning NOMINAL, then WARNING, CRITICAL, COMPACTION.",
      "enum": [
        "NOMINAL",
        "WARNING",
        "CRITICAL",
        "COMPACTION"
      ]
    },
    "fill_fraction": {
      "description": "tokens / window; may exceed 1 when the window was guessed too small. null when no usage was found.",
      "type": [
        "number",
        "null"
      ],
      "minimum": 0
    },
    "tokens": {
      "description": "Context tokens of the last assistant turn (input + cache read + cache creation); null when unknown.",
      "type": [
        "integer",
        "null"
      ],
      "minimum": 0
    },
    "window": {
      "description": "Context window used for the fraction, in tokens.",
      "type": "integer",
      "minimum": 1
    },
    "model": {
      "description": "Model the window was inferred from; null when unknown.",
      "type": [
        "string",
        "null"
      ]
    },
    "updated_at": {
      "description": "When the reading was taken.",
      "type": "string",
      "format": "date-time"
    },
    "resumption_status": {
      "description": "Whether the ORCHESTRATION.yaml resumption section is up to date: FRESH, STALE (older than the current phase or the last checkpoint), UNKNOWN (no file or no updated_at).",
      "enum": [
        "FRESH",
        "STALE",
        "UNKNOWN"
      ]
    },
    "reminders_sent": {
      "description": "Reminders sent at the current level; capped by orchestration.reminderMax.",
      "type": "integer",
      "minimum": 0
    },
    "reminded_level": {
      "description": "Level the reminders_sent count belongs to; a new level starts the count again. null before the first reminder.",
      "enum": [
        "NOMINAL",
        "WARNING",
        "CRITICAL",
        "COMPACTION",
        null
      ]
    }
  }
};

/** `schemas/reread_marker.v1.json`. */
export const REREAD_MARKER_SCHEMA: JsonSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://rehydrate.dev/schemas/reread_marker.v1.json",
  "title": "Compaction re-read marker",
  "description": "The one-shot marker PreCompact leaves in the per-user state directory (never a shared /tmp): the first PreToolUse after compaction consumes it and asks for the files to be re-read; Stop is the failsafe when no tool is called (design note 002).",
  "$comment": "additionalProperties is false: rehydrate is the only writer.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "schema_version",
    "session_id",
    "session_type",
    "compaction_id",
    "files",
    "reason",
    "created_at"
  ],
  "properties": {
    "schema_version": {
      "description": "Version of this file's shape.",
      "const": 1
    },
    "session_id": {
      "description": "Session that was compacted; the marker applies to it only.",
      "type": "string",
      "minLength": 1
    },
    "session_type": {
      "description": "Which workflow wrote it: handler, worker, project (workspace manifest) or orchestration.",
      "enum": [
        "handler",
        "worker",
        "project",
        "orchestration"
      ]
    },
    "compaction_id": {
      "description": "Opaque id of the compaction, shared with the precompact state and session record.",
      "type": "string",
      "minLength": 1
    },
    "trigger": {
      "description": "PreCompact trigger: manual (/compact) or auto.",
      "enum": [
        "manual",
        "auto"
      ]
    },
    "files": {
      "description": "Absolute paths to re-read, in order: for a handler its state file and active dispatch files, for a worker its dispatch file.",
      "type": "array",
      "maxItems": 50,
      "items": {
        "type": "string",
        "minLength": 1
      }
    },
    "reason": {
      "description": "The text given to the model with the block, already redacted.",
      "type": "string",
      "minLength": 1,
      "maxLength": 10000
    },
    "created_at": {
      "description": "When PreCompact wrote it; markers older than dispatch.markerMaxAgeSeconds are ignored.",
      "type": "string",
      "format": "date-time"
    }
  }
};

/** `schemas/session_record.v1.json`. */
export const SESSION_RECORD_SCHEMA: JsonSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://rehydrate.dev/schemas/session_record.v1.json",
  "title": "Session record",
  "description": "What rehydrate remembers about one Claude Code session, in the per-user state directory: how it started, whether it is a handler session, and every injection delivered, so that one compaction is delivered once and `rehydrate doctor` can show what happened.",
  "$comment": "additionalProperties is false: rehydrate is the only writer.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "schema_version",
    "session_id",
    "started_at",
    "updated_at",
    "handler",
    "deliveries"
  ],
  "properties": {
    "schema_version": {
      "description": "Version of this file's shape.",
      "const": 1
    },
    "session_id": {
      "description": "The session's id from the hook input.",
      "type": "string",
      "minLength": 1
    },
    "model": {
      "description": "Main-loop model from SessionStart (may carry [1m]); null when not sent.",
      "type": [
        "string",
        "null"
      ]
    },
    "source": {
      "description": "SessionStart source of the latest start: startup, resume, clear, compact or fork.",
      "enum": [
        "startup",
        "resume",
        "clear",
        "compact",
        "fork"
      ]
    },
    "cwd": {
      "description": "Working directory from the hook input.",
      "type": "string"
    },
    "transcript_path": {
      "description": "Transcript path from the hook input; empty when the client runs diskless.",
      "type": "string"
    },
    "started_at": {
      "description": "When the record was created.",
      "type": "string",
      "format": "date-time"
    },
    "updated_at": {
      "description": "When the record was last written.",
      "type": "string",
      "format": "date-time"
    },
    "handler": {
      "description": "True once the handler skill was used in this session (dispatch.handlerSkill).",
      "type": "boolean"
    },
    "worker": {
      "description": "True when the session was detected as a worker (a dispatch file is named).",
      "type": "boolean"
    },
    "compactions": {
      "description": "Compactions seen in this session.",
      "type": "integer",
      "minimum": 0
    },
    "last_compaction_id": {
      "description": "Id of the latest compaction; null before the first.",
      "type": [
        "string",
        "null"
      ]
    },
    "deliveries": {
      "description": "Injections delivered, oldest first; writers keep the newest 100.",
      "type": "array",
      "maxItems": 100,
      "items": {
        "$ref": "#/$defs/delivery"
      }
    }
  },
  "$defs": {
    "delivery": {
      "description": "One injection into the model's context, or one block.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "at",
        "event",
        "kind",
        "chars"
      ],
      "properties": {
        "at": {
          "description": "When it was delivered.",
          "type": "string",
          "format": "date-time"
        },
        "event": {
          "description": "Hook event that delivered it.",
          "enum": [
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "Stop",
            "PostCompact"
          ]
        },
        "kind": {
          "description": "What was delivered, lower-kebab-case, e.g. project-resume, compaction-alert, context-monitor, reread-block.",
          "type": "string",
          "pattern": "^[a-z][a-z0-9-]*$"
        },
        "chars": {
          "description": "Characters printed.",
          "type": "integer",
          "minimum": 0
        },
        "compaction_id": {
          "description": "Compaction it answers, when any.",
          "type": [
            "string",
            "null"
          ]
        }
      }
    }
  }
};
