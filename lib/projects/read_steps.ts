import { readInside, resolveInside } from "./read_file.ts";
import { markdownHeading } from "../yaml/markdown_heading.ts";

/** What a project's steps file says about its progress. */
export interface ProjectSteps {
  /** The steps file, relative to the project folder (`01-planning/04-steps.md`). */
  file: string;
  /**
   * `planning` while any item under the "Phase 1" heading is unchecked, `execution` once all are
   * checked; `null` when the file has no Phase 1 heading with items.
   */
  phase: "planning" | "execution" | null;
  /** Text of the first unchecked item in the file, or `null` when everything is checked. */
  currentTask: string | null;
  /** 1-based line of {@linkcode ProjectSteps.currentTask}, or `null`. */
  currentTaskLine: number | null;
  /** Checked items in the whole file. */
  checked: number;
  /** Items in the whole file. */
  total: number;
}

/** Options for {@linkcode readSteps}. */
export interface ReadStepsOptions {
  /** Steps file names relative to the project folder, tried in order. Default `["01-planning/04-steps.md", "01-planning/steps.md"]`. */
  stepsNames?: readonly string[];
  /** Larger files are refused. Default 256 KiB. */
  maxBytes?: number;
  /** `realpath` of `projectPath`, when the caller already has it. Default: computed per file. */
  realRoot?: string;
}

const DEFAULT_NAMES = ["01-planning/04-steps.md", "01-planning/steps.md"];
const CHECKBOX = /^\s{0,12}(?:[-*+]|\d{1,3}[.)])\s+\[([ xX])\]\s?(.*)$/;
const PHASE_ONE = /^phase\s*(?:1|one|i)\b/i;
const PHASE_ANY = /^phase\b/i;
const FENCE = /^\s{0,3}(```|~~~)/;
const EMPHASIS = /^[*_`]+/;

/**
 * Reads a project's steps file (the first of `stepsNames` that exists inside the project
 * folder) and counts its checkboxes (`- [ ]`, `- [x]`, `1. [ ]`; fenced code is skipped).
 * Phase 1 is the section under the first heading that starts with "Phase 1"; it ends at the
 * next heading of the same or a higher level, or at the next "Phase …" heading. Returns `null`
 * when no steps file can be read. Never throws.
 *
 * @example
 * ```ts
 * import { readSteps } from "./read_steps.ts";
 * const steps = readSteps("/w/02-projects/01-site");
 * if (steps) console.log(steps.phase, steps.currentTask, `${steps.checked}/${steps.total}`);
 * ```
 */
export function readSteps(projectPath: string, options: ReadStepsOptions = {}): ProjectSteps | null {
  for (const name of options.stepsNames ?? DEFAULT_NAMES) {
    const at = resolveInside(projectPath, name);
    if (at === "outside") continue;
    const r = readInside(projectPath, at.abs, { maxBytes: options.maxBytes ?? 256 * 1024, realRoot: options.realRoot });
    if (!r.ok) continue;
    return { file: at.rel, ...countSteps(r.text) };
  }
  return null;
}

function countSteps(text: string): Omit<ProjectSteps, "file"> {
  const lines = text.split("\n");
  let checked = 0;
  let total = 0;
  let currentTask: string | null = null;
  let currentTaskLine: number | null = null;
  let inFence = false;
  // Phase 1: -1 before it, its heading level while inside, 0 after it.
  let phaseLevel = -1;
  let phaseSeen = false;
  let phaseChecked = 0;
  let phaseTotal = 0;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const h = markdownHeading(line);
    if (h !== null) {
      const level = h.level;
      const title = h.text.replace(EMPHASIS, "");
      if (phaseLevel > 0 && (level <= phaseLevel || PHASE_ANY.test(title))) phaseLevel = 0;
      if (!phaseSeen && PHASE_ONE.test(title)) {
        phaseSeen = true;
        phaseLevel = level;
      }
      continue;
    }
    const m = CHECKBOX.exec(line);
    if (m === null) continue;
    const done = m[1] !== " ";
    total++;
    if (done) checked++;
    else if (currentTask === null) {
      currentTask = m[2].trim();
      currentTaskLine = i + 1;
    }
    if (phaseLevel > 0) {
      phaseTotal++;
      if (done) phaseChecked++;
    }
  }
  const phase = phaseTotal === 0 ? null : phaseChecked < phaseTotal ? "planning" : "execution";
  return { phase, currentTask, currentTaskLine, checked, total };
}
