// The schema of `.claude/rehydrate.json`, kept as a constant so loadConfig can
// check each value without reading or compiling anything at run time.
// `schemas/config.v1.json` is this object written out; tests/unit/schemas.test.ts
// fails when the two differ and rewrites the file with UPDATE_GOLDEN=1.
//
// Rules the config loader relies on (checked by tests/unit/schemas.test.ts):
// - every object level has `additionalProperties: false`, so a misspelt key is
//   reported by `rehydrate doctor` instead of silently doing nothing;
// - a property is either an object with `properties` (merged key by key) or a
//   leaf with a `default` (replaced whole: arrays are never merged);
// - no `$ref`, because leaves are validated on their own.

/** Values of the `enabled`-style switches: `"auto"` decides from what is on disk. */
const TRI_STATE = { enum: ["auto", true, false] } as const;

const PATH_STRING = { type: "string", minLength: 1 } as const;

/** JSON Schema (draft 2020-12) of the config file. */
export const CONFIG_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://rehydrate.dev/schemas/config.v1.json",
  title: "rehydrate configuration",
  description:
    "The file .claude/rehydrate.json, read from the user's home directory and then from the project directory; project values win, objects merge key by key and arrays replace. Every key is optional. Unknown keys and invalid values are reported by `rehydrate doctor` and ignored by the hooks, which keep the lower-priority value.",
  $comment:
    "additionalProperties is false at every level so that a misspelt key is reported instead of silently doing nothing.",
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: {
      description: "The URL of this schema, for editors. Ignored by rehydrate.",
      type: "string",
      default: "https://rehydrate.dev/schemas/config.v1.json",
    },
    debug: {
      description:
        "Write a debug log to the state directory. The environment variable REHYDRATE_DEBUG=1 turns it on as well.",
      type: "boolean",
      default: false,
    },
    stateDir: {
      description:
        "Directory for per-user state (markers, session records, the debug log); absolute or starting with ~/. null picks the platform's per-user state directory. REHYDRATE_STATE_DIR takes precedence.",
      type: ["string", "null"],
      minLength: 1,
      default: null,
    },
    budget: {
      description: "Size limits for the text a hook injects into the model's context.",
      type: "object",
      additionalProperties: false,
      properties: {
        maxChars: {
          description:
            "Most characters one hook may print. Claude Code replaces hook text over 10000 characters by a preview and a file path, so the ceiling is 10000.",
          type: "integer",
          minimum: 500,
          maximum: 10000,
          default: 9500,
        },
        fileMaxChars: {
          description: "Most characters of one file's content quoted inline; longer files are named, not quoted.",
          type: "integer",
          minimum: 0,
          maximum: 10000,
          default: 3000,
        },
      },
    },
    transcript: {
      description: "How the transcript JSONL is read.",
      type: "object",
      additionalProperties: false,
      properties: {
        scanBudgetBytes: {
          description:
            "Most bytes read backwards from the end of the transcript when looking for tool calls and token usage.",
          type: "integer",
          minimum: 65536,
          maximum: 268435456,
          default: 8388608,
        },
      },
    },
    projects: {
      description:
        "Project workspaces (design notes 000, 001, 004): the PreCompact state file and the resume-context.md manifest. Paths are relative to the project directory unless said otherwise.",
      type: "object",
      additionalProperties: false,
      properties: {
        enabled: {
          description: '"auto" turns the workflow on when the projects root directory exists.',
          ...TRI_STATE,
          default: "auto",
        },
        root: {
          description: "Directory that holds one folder per project, named NN-kebab-case.",
          ...PATH_STRING,
          default: "02-projects",
        },
        systemDir: {
          description: "The workspace's system directory.",
          ...PATH_STRING,
          default: "00-system",
        },
        manifestNames: {
          description:
            "Manifest file names relative to a project folder, tried in order; the legacy _resume.md comes last.",
          type: "array",
          items: PATH_STRING,
          minItems: 1,
          maxItems: 8,
          default: ["01-planning/resume-context.md", "01-planning/_resume.md"],
        },
        stepsNames: {
          description:
            "Steps (task checklist) file names relative to a project folder, tried in order; the first unchecked task is the current task.",
          type: "array",
          items: PATH_STRING,
          maxItems: 8,
          default: ["01-planning/04-steps.md", "01-planning/steps.md"],
        },
        stateFile: {
          description: "Where PreCompact writes the flat precompact_state.json.",
          ...PATH_STRING,
          default: "00-system/.cache/precompact_state.json",
        },
        minConfidence: {
          description: "Lowest project-detection confidence for which SessionStart resumes the project.",
          enum: ["high", "medium", "low"],
          default: "medium",
        },
        workingSetSize: {
          description: "Most files kept in the working set recorded at PreCompact.",
          type: "integer",
          minimum: 0,
          maximum: 50,
          default: 10,
        },
        skillsGlobRoots: {
          description: "Directories searched for SKILL.md files when naming the skill to continue with.",
          type: "array",
          items: PATH_STRING,
          maxItems: 16,
          default: ["00-system/skills", "03-skills"],
        },
      },
    },
    orchestration: {
      description:
        "Orchestration runs (design note 003): the context monitor, cx-NNN-checkpoint.json checkpoints and the compaction alert.",
      type: "object",
      additionalProperties: false,
      properties: {
        enabled: {
          description: '"auto" turns the workflow on when the state directory exists in the project.',
          ...TRI_STATE,
          default: "auto",
        },
        projectsDir: {
          description: "Directory holding one folder per orchestrated project, each with an ORCHESTRATION.yaml.",
          ...PATH_STRING,
          default: "projects",
        },
        stateDir: {
          description:
            "Project-local directory for context-monitor-state.json and checkpoints/cx-NNN-checkpoint.json.",
          ...PATH_STRING,
          default: ".jerry",
        },
        thresholds: {
          description: "Context fill fractions (0 to 1) at which the context monitor raises its level.",
          type: "object",
          additionalProperties: false,
          properties: {
            warning: {
              description: "Fill fraction for the WARNING level.",
              type: "number",
              minimum: 0,
              maximum: 1,
              default: 0.6,
            },
            critical: {
              description: "Fill fraction for the CRITICAL level.",
              type: "number",
              minimum: 0,
              maximum: 1,
              default: 0.8,
            },
            compaction: {
              description: "Fill fraction for the COMPACTION level.",
              type: "number",
              minimum: 0,
              maximum: 1,
              default: 0.9,
            },
          },
        },
        alertMaxTokens: {
          description:
            "Token budget of the compaction alert (design note 003, OQ-R1); free-text parts are shortened to fit.",
          type: "integer",
          minimum: 100,
          maximum: 2500,
          default: 500,
        },
        reminderMax: {
          description: "How many times the monitor repeats a level's reminder before it only reports the level.",
          type: "integer",
          minimum: 0,
          maximum: 100,
          default: 3,
        },
      },
    },
    dispatch: {
      description:
        "Handler and worker sessions (design note 002): a forced re-read of their state files after compaction.",
      type: "object",
      additionalProperties: false,
      properties: {
        enabled: {
          description: '"auto" turns the workflow on when a handler or worker session is detected.',
          ...TRI_STATE,
          default: "auto",
        },
        dispatchPathFile: {
          description:
            "File whose first line is the worker's dispatch file path. A leading ~/ is expanded to the home directory.",
          ...PATH_STRING,
          default: "~/.claude/worker-dispatch-path",
        },
        env: {
          description: "Environment variable that names the dispatch file directly; it wins over dispatchPathFile.",
          type: "string",
          pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
          default: "REHYDRATE_DISPATCH_FILE",
        },
        handlerSkill: {
          description: "Name of the skill whose use marks a session as a handler session.",
          type: "string",
          minLength: 1,
          default: "handler",
        },
        handlerStateFile: {
          description:
            "The handler's state file to re-read after compaction, relative to the project directory or starting with ~/. null: re-read only the active dispatch files.",
          type: ["string", "null"],
          minLength: 1,
          default: null,
        },
        markerMaxAgeSeconds: {
          description: "A compaction or handler marker older than this is stale and ignored.",
          type: "integer",
          minimum: 60,
          maximum: 2592000,
          default: 86400,
        },
      },
    },
    reread: {
      description: "The re-read enforcement after compaction (PreToolUse block, Stop failsafe).",
      type: "object",
      additionalProperties: false,
      properties: {
        enforce: {
          description:
            '"auto" blocks the first tool call after compaction only in handler and worker sessions; true in every session that has files to re-read; false never blocks and only injects the list.',
          ...TRI_STATE,
          default: "auto",
        },
      },
    },
    contextWindow: {
      description: "The model's context window, used to turn token counts into a fill fraction.",
      type: "object",
      additionalProperties: false,
      properties: {
        tokens: {
          description:
            "Window size in tokens. null infers it: 1000000 for a model with [1m] in its name or when more than 200000 tokens were seen, else 200000.",
          type: ["integer", "null"],
          minimum: 1000,
          maximum: 10000000,
          default: null,
        },
      },
    },
  },
} as const;

/**
 * Config keys (as key paths) holding a path in which a leading `~` or `~/`
 * means the home directory. loadConfig expands them after merging.
 */
export const HOME_EXPANDED_KEYS: readonly (readonly string[])[] = [
  ["stateDir"],
  ["dispatch", "dispatchPathFile"],
  ["dispatch", "handlerStateFile"],
];
