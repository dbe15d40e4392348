// Generated from schemas/*.json by tests/unit/cli_validate.test.ts; UPDATE_GOLDEN=1 rewrites it.
// Do not edit: change the schema file and regenerate. Embedded because the compiled binaries
// cannot read schemas/ at run time.
import type { JsonSchema } from "./validate_schema.ts";

/** `schemas/resume_context.v1.json`. */
export const RESUME_CONTEXT_SCHEMA: JsonSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://rehydrate.dev/schemas/resume_context.v1.json",
  "title": "resume-context.md frontmatter",
  "description": "The YAML frontmatter of a project's loading manifest, 01-planning/resume-context.md (legacy name _resume.md), as our YAML parser returns it: timestamps stay strings. It says what to load and which skill continues the work (design note 001). Written by the user's skills, read by rehydrate.",
  "$comment": "additionalProperties is true: the manifest belongs to the user's workspace and its skills may keep more keys in it; we read only the ones below.",
  "type": "object",
  "additionalProperties": true,
  "required": [
    "project_id",
    "project_name",
    "current_phase",
    "next_action",
    "files_to_load",
    "last_updated"
  ],
  "anyOf": [
    {
      "required": [
        "resume_schema_version"
      ]
    },
    {
      "required": [
        "resume_version"
      ]
    }
  ],
  "properties": {
    "resume_schema_version": {
      "description": "Manifest format version, e.g. \"1.0\". A number is accepted too, because unquoted 1.0 in YAML is a number.",
      "type": [
        "string",
        "number"
      ]
    },
    "resume_version": {
      "description": "Legacy name of resume_schema_version, accepted in its place.",
      "type": [
        "string",
        "number"
      ]
    },
    "project_id": {
      "description": "Folder name of the project (NN-kebab-case). Used to build paths, so nothing else is accepted.",
      "type": "string",
      "pattern": "^\\d{2}-[a-z0-9-]+$"
    },
    "project_name": {
      "description": "Human-readable project name.",
      "type": "string",
      "minLength": 1
    },
    "current_phase": {
      "description": "Phase of the project; decides which files matter most after compaction.",
      "enum": [
        "research",
        "planning",
        "execution",
        "ready-for-implementation",
        "testing",
        "review"
      ]
    },
    "next_action": {
      "description": "Name of the skill that continues the work, e.g. execute-project.",
      "type": "string",
      "minLength": 1
    },
    "files_to_load": {
      "description": "Files to re-read, relative to the project folder, in order.",
      "type": "array",
      "items": {
        "type": "string",
        "minLength": 1
      }
    },
    "current_section": {
      "description": "Section of the steps file being worked on.",
      "type": "integer",
      "minimum": 0
    },
    "current_task": {
      "description": "Task number being worked on.",
      "type": "integer",
      "minimum": 0
    },
    "progress": {
      "description": "Free-text progress, e.g. \"14/40 tasks complete\".",
      "type": "string"
    },
    "last_updated": {
      "description": "When the manifest was last updated: an ISO 8601 date or date-time, with or without an offset (the design notes write local times without one).",
      "type": "string",
      "pattern": "^\\d{4}-\\d{2}-\\d{2}"
    }
  }
};

/** `schemas/precompact_state.v1.json`. */
export const PRECOMPACT_STATE_SCHEMA: JsonSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://rehydrate.dev/schemas/precompact_state.v1.json",
  "title": "precompact_state.json",
  "description": "What the PreCompact hook records about the project being worked on, read back by SessionStart (source compact or resume) to resume that project. FLAT: every field is at the top level, never nested (design note 001). Written by rehydrate only, at projects.stateFile.",
  "$comment": "additionalProperties is false: we are the only writer, so an unknown key is a bug or a nested legacy shape (project_detection), and readers must not guess at it.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "active_project_id",
    "confidence",
    "detection_method",
    "timestamp"
  ],
  "properties": {
    "schema_version": {
      "description": "Version of this file's shape. Absent in files from before versioning, which are read as version 1.",
      "const": 1
    },
    "active_project_id": {
      "description": "Folder name of the detected project under projects.root (NN-kebab-case), or null when no project was detected.",
      "type": [
        "string",
        "null"
      ],
      "pattern": "^\\d{2}-[a-z0-9-]+$"
    },
    "confidence": {
      "description": "How sure the detection is: high (several reads or edits of the project's files), medium (the project skill or its paths named), low (only mentioned), none (nothing found).",
      "enum": [
        "high",
        "medium",
        "low",
        "none"
      ]
    },
    "detection_method": {
      "description": "Where the project came from: the transcript's tool calls, the previous state file, or the fallback (the most recently changed manifest).",
      "enum": [
        "transcript",
        "cache",
        "fallback"
      ]
    },
    "timestamp": {
      "description": "When PreCompact wrote the file, RFC 3339 with an offset.",
      "type": "string",
      "format": "date-time"
    },
    "session_id": {
      "description": "Session that was compacted.",
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
    "compaction_id": {
      "description": "Opaque id of this compaction, shared with the re-read marker and the delivery record so one compaction is delivered once.",
      "type": "string",
      "minLength": 1
    },
    "transcript_bytes_scanned": {
      "description": "Bytes of the transcript read backwards to detect the project (bounded by transcript.scanBudgetBytes).",
      "type": "integer",
      "minimum": 0
    },
    "working_set": {
      "description": "Files most worth re-reading, best first, at most projects.workingSetSize (hard limit 50).",
      "type": "array",
      "maxItems": 50,
      "items": {
        "$ref": "#/$defs/workingSetEntry"
      }
    },
    "last_tool_calls": {
      "description": "The most recent file-related tool calls, newest last, at most 20.",
      "type": "array",
      "maxItems": 20,
      "items": {
        "$ref": "#/$defs/toolCall"
      }
    },
    "delivered": {
      "description": "Set by SessionStart once it has injected the resume context for this compaction; null until then.",
      "oneOf": [
        {
          "type": "null"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "at",
            "compaction_id"
          ],
          "properties": {
            "at": {
              "description": "When the resume context was injected.",
              "type": "string",
              "format": "date-time"
            },
            "compaction_id": {
              "description": "The compaction it was injected for.",
              "type": "string",
              "minLength": 1
            }
          }
        }
      ]
    }
  },
  "$defs": {
    "workingSetEntry": {
      "description": "One file of the working set.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "path",
        "score",
        "reasons"
      ],
      "properties": {
        "path": {
          "description": "Path relative to the project directory when inside it, else absolute.",
          "type": "string",
          "minLength": 1
        },
        "score": {
          "description": "Ranking score; higher is more worth re-reading.",
          "type": "number",
          "minimum": 0
        },
        "reasons": {
          "description": "Why the file is in the set, e.g. edited, read, manifest, steps.",
          "type": "array",
          "maxItems": 16,
          "items": {
            "type": "string",
            "minLength": 1
          }
        }
      }
    },
    "toolCall": {
      "description": "One tool call seen in the transcript.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "tool"
      ],
      "properties": {
        "tool": {
          "description": "Tool name (Read, Edit, Write, Bash, Skill, ...).",
          "type": "string",
          "minLength": 1
        },
        "file": {
          "description": "The file the call touched, when it names one.",
          "type": "string",
          "minLength": 1
        },
        "timestamp": {
          "description": "The transcript row's timestamp.",
          "type": "string",
          "format": "date-time"
        }
      }
    }
  }
};
