import type { RehydrateConfig } from "./load_config.ts";

/**
 * The configuration used when no `.claude/rehydrate.json` sets a key: a fresh,
 * mutable object on every call, sharing nothing with any other. Every value
 * equals the `default` of the same key in `schemas/config.v1.json` (a test
 * checks both ways). Paths are returned as written (`~/` not expanded);
 * `loadConfig` expands them. (There is no frozen shared copy: building and
 * freezing one at start-up cost every hook about half a millisecond.)
 *
 * @example
 * ```ts
 * const config = defaultConfig();
 * config.debug = true; // the next defaultConfig() still has debug: false
 * ```
 */
export function defaultConfig(): RehydrateConfig {
  // A literal, not a clone: cheaper on a hook's single cold call.
  return {
    $schema: "https://rehydrate.dev/schemas/config.v1.json",
    enabled: true,
    debug: false,
    stateDir: null,
    budget: { maxChars: 9500, fileMaxChars: 3000 },
    transcript: { scanBudgetBytes: 8388608 },
    session: { enabled: true, userRequests: 3, restoreMessage: true, fillWarnings: [0.55, 0.65, 0.75] },
    projects: {
      enabled: "auto",
      root: "02-projects",
      systemDir: "00-system",
      manifestNames: ["01-planning/resume-context.md", "01-planning/_resume.md"],
      stepsNames: ["01-planning/04-steps.md", "01-planning/steps.md"],
      stateFile: "00-system/.cache/precompact_state.json",
      minConfidence: "medium",
      workingSetSize: 10,
      skillsGlobRoots: ["00-system/skills", "03-skills"],
    },
    orchestration: {
      enabled: "auto",
      projectsDir: "projects",
      stateDir: ".jerry",
      thresholds: { warning: 0.6, critical: 0.8, compaction: 0.9 },
      alertMaxTokens: 500,
      reminderMax: 3,
    },
    dispatch: {
      enabled: "auto",
      dispatchPathFile: "~/.claude/worker-dispatch-path",
      env: "REHYDRATE_DISPATCH_FILE",
      handlerSkill: "handler",
      dispatchDir: "docs/handler-dispatches",
      handlerStateFile: null,
      markerMaxAgeSeconds: 86400,
    },
    reread: { enforce: "auto" },
    contextWindow: { tokens: null },
  };
}
