import { existsSync } from "../node/fs.ts";
import { homeDir } from "../node/home_dir.ts";
import { configFiles } from "./config_files.ts";
import { expandHomeKeys } from "./_merge.ts";
import { checkConfigText } from "./check_config_text.ts";
import { HOME_EXPANDED_KEYS } from "./config_schema.ts";
import { defaultConfig } from "./default_config.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { readProjectFile } from "../state/read_project_file.ts";

/** A switch that may also be left to rehydrate: `"auto"` decides from what is on disk. */
export type TriState = "auto" | boolean;

/** Largest config file read, in bytes. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The merged configuration. Mirrors `schemas/config.v1.json`; see the
 * descriptions there for what each key does.
 */
export interface RehydrateConfig {
  /** The schema URL, for editors. */
  $schema: string;
  /** False turns rehydrate off: every hook exits at once, with no output and no write. */
  enabled: boolean;
  /** Write a debug log to the state directory. */
  debug: boolean;
  /** Per-user state directory (`~/` expanded), or null for the platform default. */
  stateDir: string | null;
  /** Size limits for injected text. */
  budget: {
    /** Most characters one hook may print (at most 10000). */
    maxChars: number;
    /** Most characters of one file quoted inline. */
    fileMaxChars: number;
  };
  /** Transcript reading. */
  transcript: {
    /** Most bytes read backwards from the transcript's end. */
    scanBudgetBytes: number;
  };
  /** The everyday layer: the session snapshot and `<session-context>`, in every repository. */
  session: {
    /** False turns the layer off: no snapshot, no summarizer lines, no `<session-context>`. */
    enabled: boolean;
    /** The user's latest typed requests kept (0 to 10). */
    userRequests: number;
    /** One line for the user after a compaction (the hook's `systemMessage`) on what came back. */
    restoreMessage: boolean;
    /** Fill fractions (0.5 to 1, at most 5) at which `<context-fill>` speaks once; `[]` for none. */
    fillWarnings: number[];
  };
  /** Project workspaces: precompact state and resume-context.md manifest. */
  projects: {
    enabled: TriState;
    /** Directory of project folders, relative to the project directory. */
    root: string;
    /** The workspace system directory. */
    systemDir: string;
    /** Manifest names relative to a project folder, tried in order. */
    manifestNames: string[];
    /** Steps file names relative to a project folder, tried in order. */
    stepsNames: string[];
    /** The flat precompact_state.json, relative to the project directory. */
    stateFile: string;
    /** Lowest detection confidence that triggers a resume. */
    minConfidence: "high" | "medium" | "low";
    /** Most files in the recorded working set. */
    workingSetSize: number;
    /** Directories searched for SKILL.md files. */
    skillsGlobRoots: string[];
  };
  /** Orchestration runs: context monitor, checkpoints, compaction alert. */
  orchestration: {
    enabled: TriState;
    /** Directory of orchestrated projects. */
    projectsDir: string;
    /** Project-local state directory (`.jerry`). */
    stateDir: string;
    /** Fill fractions for the monitor's levels. */
    thresholds: { warning: number; critical: number; compaction: number };
    /** Token budget of the compaction alert. */
    alertMaxTokens: number;
    /** Repeats of a level's reminder. */
    reminderMax: number;
  };
  /** Handler and worker sessions: forced re-read after compaction. */
  dispatch: {
    enabled: TriState;
    /** File naming the worker's dispatch file (`~/` expanded). */
    dispatchPathFile: string;
    /** Environment variable naming the dispatch file directly. */
    env: string;
    /** Skill that marks a handler session. */
    handlerSkill: string;
    /** Directory of the handler's dispatch files, relative to the project directory. */
    dispatchDir: string;
    /** Handler state file (`~/` expanded), or null. */
    handlerStateFile: string | null;
    /** Age after which a marker is stale. */
    markerMaxAgeSeconds: number;
  };
  /** Re-read enforcement after compaction. */
  reread: { enforce: TriState };
  /** Context window override. */
  contextWindow: { tokens: number | null };
}

/** Why part of a config file was not used. A closed set. */
export type ConfigIssueCode =
  /** The file exists but could not be read (permissions, a directory). */
  | "unreadable"
  /** The file named by `REHYDRATE_CONFIG` does not exist. */
  | "not_found"
  /** The file is not valid JSON; none of it is used. */
  | "invalid_json"
  /** A key the schema does not define; it is ignored. */
  | "unknown_key"
  /** A value of the wrong type or out of range; the lower-priority value is kept. */
  | "invalid_value"
  /**
   * A key a project's own config may not set (marked `"x-scope": "user"` in the schema: `stateDir`,
   * `debug`, the dispatch sources, ...); only the user config, `REHYDRATE_CONFIG` and the environment can.
   */
  | "user_only";

/** One problem found while loading the configuration. */
export interface ConfigIssue {
  code: ConfigIssueCode;
  /** The file the problem is in. */
  file: string;
  /** JSON pointer inside the file (`/budget/maxChars`), `""` for the whole file. */
  path: string;
  /** The schema keyword that failed, when there is one (`type`, `maximum`, `additionalProperties`). */
  keyword?: string;
  /** Sentence-case explanation without a trailing period. */
  message: string;
  /** The 1-based line of a syntax error (`invalid_json`). */
  line?: number;
}

/** Options for {@linkcode loadConfig}. */
export interface LoadConfigOptions {
  /** Home directory holding the user config. Default `env.HOME`, then `os.homedir()`. */
  homeDir?: string;
  /**
   * Environment. Default `process.env`. `REHYDRATE_CONFIG` names one more file
   * (relative to `projectDir`, `~/` expanded) that wins over both others.
   */
  env?: Record<string, string | undefined>;
}

/** What {@linkcode loadConfig} returns. */
export interface LoadedConfig {
  /** Defaults overlaid with every valid value found. */
  config: RehydrateConfig;
  /** Everything that was ignored, with its file and JSON pointer. */
  issues: ConfigIssue[];
  /** Files that were read and parsed, lowest priority first. */
  sources: string[];
  /**
   * The file each value set by a file came from, by its dotted key (`"reread.enforce"`,
   * `"enabled"`); keys left at their default are absent.
   */
  origins: Record<string, string>;
  /** The text of every config file read, by path: where `rehydrate doctor` finds an issue's line. */
  texts: Record<string, string>;
}

/**
 * Loads the configuration: defaults, overlaid by `<home>/.claude/rehydrate.json`,
 * overlaid by `<projectDir>/.claude/rehydrate.json` (and by the file named in
 * `REHYDRATE_CONFIG`, when set). Objects merge key by key; arrays and other
 * values replace. A missing file is skipped silently. A file that is not JSON,
 * an unknown key or an invalid value is reported in `issues` and ignored, so
 * the lower-priority value stays: hooks carry on, `rehydrate doctor` prints the
 * issues. The project's file is not trusted: a key the schema marks `"x-scope": "user"` is
 * ignored there (`user_only`), and a key marked `"x-path": "project"` must be a relative path
 * inside the project in every file (`invalid_value`). `~/` is expanded in `stateDir`,
 * `dispatch.dispatchPathFile` and `dispatch.handlerStateFile`. Never throws.
 *
 * @example
 * ```ts
 * const { config, issues } = loadConfig("/home/a/work/proj", { homeDir: "/home/a" });
 * config.budget.maxChars; // 9500 unless a file sets it
 * for (const issue of issues) console.error(`${issue.file}${issue.path ? "#" + issue.path : ""}: ${issue.message}`);
 * ```
 */
export function loadConfig(projectDir: string, options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const home = options.homeDir ?? homeDir(env);
  const config = defaultConfig();
  const issues: ConfigIssue[] = [];
  const sources: string[] = [];
  const origins: Record<string, string> = {};
  const texts: Record<string, string> = {};

  const files = configFiles(projectDir, home, env);
  applyFile(files.home, false);
  if (files.project !== files.home) applyFile(files.project, false, true);
  if (files.explicit !== null && files.explicit !== files.home && files.explicit !== files.project) {
    applyFile(files.explicit, true);
  }
  expandHomeKeys(config as unknown as Record<string, unknown>, HOME_EXPANDED_KEYS, home);
  return { config, issues, sources, origins, texts };

  function projectRead(file: string): { ok: true; text: string } | { ok: false; reason: string; message: string } {
    const r = readProjectFile(projectDir, file, { maxBytes: MAX_CONFIG_BYTES });
    if (r.ok) return r;
    return {
      ok: false,
      reason: r.problem,
      message: r.problem === "outside"
        ? `${file} resolves outside the project or has a second hard link; not read`
        : `${file}: ${r.problem.replace("_", " ")}`,
    };
  }

  function applyFile(file: string, required: boolean, project = false): void {
    // Most users have no config file; a failed read costs an exception, a check does not.
    if (!required && !existsSync(file)) return;
    // A link to /dev/zero or a FIFO in a cloned repository must not hang every hook, and the
    // project's file is read only inside the project, with one link (issue #36, rule 6).
    const read = project ? projectRead(file) : readPrivateFile(file, {
      maxBytes: MAX_CONFIG_BYTES,
      requireOwner: false,
      followLinks: true,
    });
    if (!read.ok) {
      if (read.reason === "missing") {
        if (required) issues.push({ code: "not_found", file, path: "", message: "Cannot find the config file" });
      } else {
        issues.push({ code: "unreadable", file, path: "", message: `Cannot read the config file: ${read.message}` });
      }
      return;
    }
    texts[file] = read.text;
    // A cloned repository's config is the attacker's: keys the schema marks "x-scope": "user"
    // (whose files are read, where state and the debug log go, the transcript budget, the model's
    // window) are skipped in it and reported as user_only, so the user's value or the default stays.
    const checked = checkConfigText(read.text, { file, project, into: config, origins });
    issues.push(...checked.issues);
    if (checked.json) sources.push(file);
  }
}
