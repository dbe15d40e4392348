/** The evidence {@linkcode detectSessionMode} decides on. */
export interface SessionModeInput {
  /** SessionStart `source`: `startup`, `resume`, `clear`, `compact`, `fork` (anything else counts as `startup`). */
  source: string;
  /** The project the state file names (already checked against `minConfidence`), or `null`. */
  projectId: string | null;
  /** The project's phase from its steps file (else its manifest); needed only with a project. */
  phase?: "planning" | "execution" | null;
  /** Skill called after the last work on the project (case 4 of docs/projects.md), or `null`. */
  switchedToSkill?: string | null;
  /** Whether the latest tool calls include a file operation on the project. Default `true`. */
  projectFileWork?: boolean;
  /** Whether the latest tool calls include a skill call (case 5 vs 6). Default `false`. */
  skillWork?: boolean;
}

/** The mode, action and skill for one of the ten cases of docs/projects.md. */
export interface SessionMode {
  /** Case number of the table in docs/projects.md (1-10); `clear` reports case 1. */
  case: number;
  mode: "startup" | "compact";
  action: "display_menu" | "continue_working";
  /** The project resumed (compact mode only). */
  projectId: string | null;
  phase: "planning" | "execution" | null;
  /** `plan-project` (planning) or `execute-project` (execution) in compact mode. */
  skill: "plan-project" | "execute-project" | null;
}

/**
 * Decides between STARTUP (menu, or continue-working without a menu) and COMPACT (resume the
 * project in its phase), following the ten cases of docs/projects.md with `new` read as
 * `startup`:
 *
 * | # | source | project | activity | mode / action |
 * |---|---|---|---|---|
 * | 1 | startup, clear | - | - | startup / display_menu |
 * | 2, 3 | compact | yes | file work on it | compact / continue (planning: plan-project, execution: execute-project) |
 * | 4 | compact | yes | switched to another skill after it | startup / continue_working |
 * | 5 | compact | none | skill work | startup / continue_working |
 * | 6 | compact | none | chat | startup / continue_working |
 * | 7 | compact | yes | only talk about it | compact / continue |
 * | 8, 9 | resume, fork | yes | any | compact / continue (planning: 8, execution: 9) |
 * | 10 | resume, fork | none | any | startup / display_menu |
 *
 * `clear` never resumes. Without a phase the project is treated as in planning, the phase
 * that loads every listed file. Any other source counts as `startup`.
 *
 * @example
 * ```ts
 * import { detectSessionMode } from "./session_mode.ts";
 * detectSessionMode({ source: "compact", projectId: "01-site", phase: "execution" });
 * // { case: 3, mode: "compact", action: "continue_working", projectId: "01-site", phase: "execution", skill: "execute-project" }
 * ```
 */
export function detectSessionMode(input: SessionModeInput): SessionMode {
  const source = input.source;
  const project = input.projectId;
  if (source === "compact") {
    if (project === null) return startup(input.skillWork ? 5 : 6, "continue_working");
    if (input.switchedToSkill) return startup(4, "continue_working");
    const phase = input.phase ?? "planning";
    if (input.projectFileWork === false) return compact(7, project, phase);
    return compact(phase === "planning" ? 2 : 3, project, phase);
  }
  if (source === "resume" || source === "fork") {
    if (project === null) return startup(10, "display_menu");
    const phase = input.phase ?? "planning";
    return compact(phase === "planning" ? 8 : 9, project, phase);
  }
  return startup(1, "display_menu");
}

function startup(n: number, action: SessionMode["action"]): SessionMode {
  return { case: n, mode: "startup", action, projectId: null, phase: null, skill: null };
}

function compact(n: number, projectId: string, phase: "planning" | "execution"): SessionMode {
  return {
    case: n,
    mode: "compact",
    action: "continue_working",
    projectId,
    phase,
    skill: phase === "planning" ? "plan-project" : "execute-project",
  };
}
