/**
 * Private helper of `rehydrate install` and `doctor`: which config values ask for behaviour that
 * only a registered hook gives. `"reread": {"enforce": true}` without PreToolUse is a setting that
 * does nothing (issue #37); so install registers what the config asks for, and doctor fails when a
 * value asks for a hook that is missing. Every key of `schemas/config.v1.json` is in
 * {@linkcode CONFIG_HOOK_NEEDS} (tests/unit/cli/config_hooks.test.ts checks it), so a new key
 * cannot be forgotten: it needs hooks when some value of it does, or is `null`, a key that only
 * tunes what a hook already registered for another reason does.
 *
 * @module
 */

import type { RehydrateConfig } from "../config/load_config.ts";
import { hooksFor, type HookSpec, type Workflow, WORKFLOWS } from "./_install_plan.ts";

/** What one key asks of the hooks, when its value turns something on. */
export interface ConfigHookNeed {
  /** True when the value in `config` asks for the behaviour. */
  when(config: RehydrateConfig): boolean;
  /** The hooks (`HOOK_NAMES` keys) without which the behaviour does not happen. */
  hooks: readonly string[];
  /** What the behaviour is, as a noun phrase for a message: "the re-read after a compaction (…)". */
  what: string;
}

const CORE = ["pre-compact", "session-start", "user-prompt-submit"] as const;
const everyday = (c: RehydrateConfig) => c.session.enabled !== false;

/**
 * Every config key, by its dotted name, with what it needs of the hooks; `null` for a key that
 * needs no hook of its own (it tunes one that another key or the everyday layer needs).
 */
export const CONFIG_HOOK_NEEDS: Readonly<Record<string, ConfigHookNeed | null>> = {
  "$schema": null,
  // The off switch needs nothing: it stops the hooks there are.
  "enabled": null,
  "debug": null,
  "stateDir": null,
  "budget.maxChars": null,
  "budget.fileMaxChars": null,
  "transcript.scanBudgetBytes": null,
  "session.enabled": {
    when: everyday,
    hooks: CORE,
    what: "the everyday layer (the session saved at PreCompact, <session-context> after the compaction)",
  },
  "session.userRequests": null,
  "session.restoreMessage": {
    when: (c) => c.session.restoreMessage !== false,
    hooks: ["session-start", "user-prompt-submit"],
    what: "the line that tells you what came back after a compaction",
  },
  "session.fillWarnings": {
    when: (c) => everyday(c) && c.session.fillWarnings.length > 0,
    hooks: ["user-prompt-submit"],
    what: "the <context-fill> line as the context fills",
  },
  "projects.enabled": {
    when: (c) => c.projects.enabled === true,
    hooks: ["pre-compact", "session-start"],
    what: "the project workspace's context after a compaction",
  },
  "projects.root": null,
  "projects.systemDir": null,
  "projects.manifestNames": null,
  "projects.stepsNames": null,
  "projects.stateFile": null,
  "projects.minConfidence": null,
  "projects.workingSetSize": null,
  "projects.skillsGlobRoots": null,
  "orchestration.enabled": {
    when: (c) => c.orchestration.enabled === true,
    hooks: [...CORE, "post-compact", "post-tool-use"],
    what: "the orchestration run's monitor, checkpoints and compaction alert",
  },
  "orchestration.projectsDir": null,
  "orchestration.stateDir": null,
  "orchestration.thresholds.warning": null,
  "orchestration.thresholds.critical": null,
  "orchestration.thresholds.compaction": null,
  "orchestration.alertMaxTokens": null,
  "orchestration.reminderMax": null,
  "dispatch.enabled": {
    when: (c) => c.dispatch.enabled === true,
    hooks: ["pre-compact", "session-start", "pre-tool-use", "post-tool-use", "stop"],
    what: "the handler's and workers' re-read of their dispatch files",
  },
  "dispatch.dispatchPathFile": null,
  "dispatch.env": null,
  "dispatch.handlerSkill": null,
  "dispatch.dispatchDir": null,
  "dispatch.handlerStateFile": null,
  "dispatch.markerMaxAgeSeconds": null,
  "reread.enforce": {
    when: (c) => c.reread.enforce === true,
    hooks: ["pre-compact", "pre-tool-use", "stop"],
    what: "the re-read after a compaction (the first tool call is denied until the edited files are re-read)",
  },
  "contextWindow.tokens": null,
};

/** A key whose value asks for hooks, as {@linkcode configNeeds} finds it. */
export interface ConfigNeedFound {
  key: string;
  value: unknown;
  hooks: readonly string[];
  what: string;
}

/**
 * The keys whose value in `config` asks for hooks, each with its value. None when rehydrate is off
 * (`"enabled": false`): then nothing runs, whatever is registered.
 *
 * @example
 * ```ts
 * configNeeds(loadConfig("/work/repo").config).find((n) => n.key === "reread.enforce")?.hooks;
 * // ["pre-compact", "pre-tool-use", "stop"] when the project sets "reread": {"enforce": true}
 * ```
 */
export function configNeeds(config: RehydrateConfig): ConfigNeedFound[] {
  if (config.enabled === false) return [];
  const out: ConfigNeedFound[] = [];
  for (const [key, need] of Object.entries(CONFIG_HOOK_NEEDS)) {
    if (need === null || !need.when(config)) continue;
    let value: unknown = config;
    for (const part of key.split(".")) value = (value as Record<string, unknown>)[part];
    out.push({ key, value, hooks: need.hooks, what: need.what });
  }
  return out;
}

/**
 * The registrations `rehydrate install` writes: those of `workflows` (detected or named), plus every
 * workflow the config turns on (`"enabled": true`), plus the re-read enforcement when
 * `reread.enforce` is true. Every hook {@linkcode configNeeds} names is among them (a test checks it
 * for each key).
 *
 * @example
 * ```ts
 * wantedHooks([], config, { modelSwitch: true }).map((s) => s.hook);
 * ```
 */
export function wantedHooks(
  workflows: readonly Workflow[],
  config: RehydrateConfig,
  options: { modelSwitch?: boolean } = {},
): HookSpec[] {
  const on = WORKFLOWS.filter((w) => workflows.includes(w) || config[w].enabled === true);
  return hooksFor(on, { enforceReread: config.reread.enforce === true, modelSwitch: options.modelSwitch });
}
