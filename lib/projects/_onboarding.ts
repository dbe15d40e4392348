// Private helper of lib/projects/session_start.ts: the workspace's onboarding state, from its own
// files (docs/projects.md, "Onboarding"). The onboarding skills are the system skills of the
// `learning` category (`00-system/skills/learning/<name>/SKILL.md`); a skill is done when
// `01-memory/user-config.yaml` says `learning_tracker.completed.<name>: true` (the name with `_`
// for `-`, as the workspace's own learning skills write it).
import { parseYaml } from "../yaml/parse_yaml.ts";
import type { SkillInfo } from "./scan_skills.ts";

/** One onboarding skill the user has not finished. */
export interface PendingOnboarding {
  name: string;
  /** Its `SKILL.md`, relative to the project directory. */
  path: string;
  /** The time the skill's description gives ("8-10 min"), or `null`. */
  time: string | null;
}

/** The design's order of the onboarding skills; others follow by name. */
const ORDER = ["learn-projects", "learn-skills", "learn-integrations", "learn-nexus"];
/** "8-10 min", "15 min.", "a 15-minute tour". */
const TIME = /(\d{1,3}(?:\s*[-–]\s*\d{1,3})?)[\s-]*min(?:ute)?s?\b/i;
const DASH = /-/g;

/**
 * The onboarding skills not marked complete in `user-config.yaml` (its text, or `null` when the
 * file is absent), in the design's order. A `user-config.yaml` that does not parse marks nothing
 * complete. No I/O.
 *
 * @example
 * ```ts
 * const pending = pendingOnboarding(
 *   [{ name: "learn-nexus", description: "Master Nexus. 15-18 min.", path: "00-system/skills/learning/learn-nexus/SKILL.md", root: "00-system/skills", category: "learning" }],
 *   "learning_tracker:\n  completed:\n    learn_nexus: false\n",
 * );
 * // [{ name: "learn-nexus", path: "00-system/skills/learning/learn-nexus/SKILL.md", time: "15-18 min" }]
 * ```
 */
export function pendingOnboarding(learning: readonly SkillInfo[], userConfig: string | null): PendingOnboarding[] {
  const completed = completedMap(userConfig);
  const rank = (name: string) => {
    const i = ORDER.indexOf(name);
    return i < 0 ? ORDER.length : i;
  };
  return learning
    .filter((s) => completed[s.name.replace(DASH, "_")] !== true && completed[s.name] !== true)
    .sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((s) => {
      const m = TIME.exec(s.description);
      return { name: s.name, path: s.path, time: m ? `${m[1].replace(/\s+/g, "")} min` : null };
    });
}

function completedMap(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  const { value, errors } = parseYaml(text);
  if (errors.length > 0 || typeof value !== "object" || value === null) return {};
  const tracker = (value as Record<string, unknown>).learning_tracker;
  if (typeof tracker !== "object" || tracker === null) return {};
  const done = (tracker as Record<string, unknown>).completed;
  return typeof done === "object" && done !== null && !Array.isArray(done) ? done as Record<string, unknown> : {};
}
