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

/** `schemas/config.v1.json`. */
export const CONFIG_FILE_SCHEMA: JsonSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://rehydrate.dev/schemas/config.v1.json",
  "title": "rehydrate configuration",
  "description": "The file .claude/rehydrate.json, read from the user's home directory and then from the project directory; project values win, objects merge key by key and arrays replace. Every key is optional. Unknown keys and invalid values are reported by `rehydrate doctor` and ignored by the hooks, which keep the lower-priority value.",
  "$comment": "additionalProperties is false at every level so that a misspelt key is reported instead of silently doing nothing.",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "$schema": {
      "description": "The URL of this schema, for editors. Ignored by rehydrate.",
      "type": "string",
      "default": "https://rehydrate.dev/schemas/config.v1.json"
    },
    "debug": {
      "description": "Write a debug log to the state directory. The environment variable REHYDRATE_DEBUG=1 turns it on as well.",
      "type": "boolean",
      "default": false
    },
    "stateDir": {
      "description": "Directory for per-user state (markers, session records, the debug log); absolute or starting with ~/. null picks the platform's per-user state directory. REHYDRATE_STATE_DIR takes precedence.",
      "type": [
        "string",
        "null"
      ],
      "minLength": 1,
      "default": null
    },
    "budget": {
      "description": "Size limits for the text a hook injects into the model's context.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "maxChars": {
          "description": "Most characters one hook may print. Claude Code replaces hook text over 10000 characters by a preview and a file path, so the ceiling is 10000.",
          "type": "integer",
          "minimum": 500,
          "maximum": 10000,
          "default": 9500
        },
        "fileMaxChars": {
          "description": "Most characters of one file's content quoted inline; longer files are named, not quoted.",
          "type": "integer",
          "minimum": 0,
          "maximum": 10000,
          "default": 3000
        }
      }
    },
    "transcript": {
      "description": "How the transcript JSONL is read.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "scanBudgetBytes": {
          "description": "Most bytes read backwards from the end of the transcript when looking for tool calls and token usage.",
          "type": "integer",
          "minimum": 65536,
          "maximum": 268435456,
          "default": 8388608
        }
      }
    },
    "projects": {
      "description": "Project workspaces (design notes 000, 001, 004): the PreCompact state file and the resume-context.md manifest. Paths are relative to the project directory unless said otherwise.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "enabled": {
          "description": "\"auto\" turns the workflow on when the projects root directory exists.",
          "enum": [
            "auto",
            true,
            false
          ],
          "default": "auto"
        },
        "root": {
          "description": "Directory that holds one folder per project, named NN-kebab-case.",
          "type": "string",
          "minLength": 1,
          "default": "02-projects"
        },
        "systemDir": {
          "description": "The workspace's system directory.",
          "type": "string",
          "minLength": 1,
          "default": "00-system"
        },
        "manifestNames": {
          "description": "Manifest file names relative to a project folder, tried in order; the legacy _resume.md comes last.",
          "type": "array",
          "items": {
            "type": "string",
            "minLength": 1
          },
          "minItems": 1,
          "maxItems": 8,
          "default": [
            "01-planning/resume-context.md",
            "01-planning/_resume.md"
          ]
        },
        "stepsNames": {
          "description": "Steps (task checklist) file names relative to a project folder, tried in order; the first unchecked task is the current task.",
          "type": "array",
          "items": {
            "type": "string",
            "minLength": 1
          },
          "maxItems": 8,
          "default": [
            "01-planning/04-steps.md",
            "01-planning/steps.md"
          ]
        },
        "stateFile": {
          "description": "Where PreCompact writes the flat precompact_state.json.",
          "type": "string",
          "minLength": 1,
          "default": "00-system/.cache/precompact_state.json"
        },
        "minConfidence": {
          "description": "Lowest project-detection confidence for which SessionStart resumes the project.",
          "enum": [
            "high",
            "medium",
            "low"
          ],
          "default": "medium"
        },
        "workingSetSize": {
          "description": "Most files kept in the working set recorded at PreCompact.",
          "type": "integer",
          "minimum": 0,
          "maximum": 50,
          "default": 10
        },
        "skillsGlobRoots": {
          "description": "Directories searched for SKILL.md files when naming the skill to continue with.",
          "type": "array",
          "items": {
            "type": "string",
            "minLength": 1
          },
          "maxItems": 16,
          "default": [
            "00-system/skills",
            "03-skills"
          ]
        }
      }
    },
    "orchestration": {
      "description": "Orchestration runs (design note 003): the context monitor, cx-NNN-checkpoint.json checkpoints and the compaction alert.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "enabled": {
          "description": "\"auto\" turns the workflow on when the state directory exists in the project.",
          "enum": [
            "auto",
            true,
            false
          ],
          "default": "auto"
        },
        "projectsDir": {
          "description": "Directory holding one folder per orchestrated project, each with an ORCHESTRATION.yaml.",
          "type": "string",
          "minLength": 1,
          "default": "projects"
        },
        "stateDir": {
          "description": "Project-local directory for context-monitor-state.json and checkpoints/cx-NNN-checkpoint.json.",
          "type": "string",
          "minLength": 1,
          "default": ".jerry"
        },
        "thresholds": {
          "description": "Context fill fractions (0 to 1) at which the context monitor raises its level.",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "warning": {
              "description": "Fill fraction for the WARNING level.",
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "default": 0.6
            },
            "critical": {
              "description": "Fill fraction for the CRITICAL level.",
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "default": 0.8
            },
            "compaction": {
              "description": "Fill fraction for the COMPACTION level.",
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "default": 0.9
            }
          }
        },
        "alertMaxTokens": {
          "description": "Token budget of the compaction alert (design note 003, OQ-R1); free-text parts are shortened to fit.",
          "type": "integer",
          "minimum": 100,
          "maximum": 2500,
          "default": 500
        },
        "reminderMax": {
          "description": "How many times the monitor repeats a level's reminder before it only reports the level.",
          "type": "integer",
          "minimum": 0,
          "maximum": 100,
          "default": 3
        }
      }
    },
    "dispatch": {
      "description": "Handler and worker sessions (design note 002): a forced re-read of their state files after compaction.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "enabled": {
          "description": "\"auto\" turns the workflow on when a handler or worker session is detected.",
          "enum": [
            "auto",
            true,
            false
          ],
          "default": "auto"
        },
        "dispatchPathFile": {
          "description": "File whose first line is the worker's dispatch file path. A leading ~/ is expanded to the home directory.",
          "type": "string",
          "minLength": 1,
          "default": "~/.claude/worker-dispatch-path"
        },
        "env": {
          "description": "Environment variable that names the dispatch file directly; it wins over dispatchPathFile.",
          "type": "string",
          "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
          "default": "REHYDRATE_DISPATCH_FILE"
        },
        "handlerSkill": {
          "description": "Name of the skill whose use marks a session as a handler session.",
          "type": "string",
          "minLength": 1,
          "default": "handler"
        },
        "handlerStateFile": {
          "description": "The handler's state file to re-read after compaction, relative to the project directory or starting with ~/. null: re-read only the active dispatch files.",
          "type": [
            "string",
            "null"
          ],
          "minLength": 1,
          "default": null
        },
        "markerMaxAgeSeconds": {
          "description": "A compaction or handler marker older than this is stale and ignored.",
          "type": "integer",
          "minimum": 60,
          "maximum": 2592000,
          "default": 86400
        }
      }
    },
    "reread": {
      "description": "The re-read enforcement after compaction (PreToolUse block, Stop failsafe).",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "enforce": {
          "description": "\"auto\" blocks the first tool call after compaction only in handler and worker sessions; true in every session that has files to re-read; false never blocks and only injects the list.",
          "enum": [
            "auto",
            true,
            false
          ],
          "default": "auto"
        }
      }
    },
    "contextWindow": {
      "description": "The model's context window, used to turn token counts into a fill fraction.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "tokens": {
          "description": "Window size in tokens. null infers it: 1000000 for a model with [1m] in its name or when more than 200000 tokens were seen, else 200000.",
          "type": [
            "integer",
            "null"
          ],
          "minimum": 1000,
          "maximum": 10000000,
          "default": null
        }
      }
    }
  }
};
