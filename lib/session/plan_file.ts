import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { rowToolCalls } from "../transcript/tool_calls.ts";
import { statSync } from "../node/fs.ts";
import { isInsidePath, relativeFilePath, resolveFilePath, safeFilePath } from "./_paths.ts";

/** Finds the session's plan file in rows read newest first. */
export interface PlanFileTracker {
  /** Feeds the next row (each older than the one before). */
  add(row: TranscriptRow): void;
  /** True once the newest plan file is known: older rows change nothing. */
  found(): boolean;
  /**
   * The plan file to point at: inside `projectDir` (shown relative to it) or Claude Code's own
   * plan folder (shown with `~` for the home directory), and a file that exists now; else undefined.
   */
  result(): string | undefined;
}

/** Options of {@linkcode planFileTracker}. */
export interface PlanFileOptions {
  /** The repository: a plan inside it is shown relative to it. Default: none (only the client's plans). */
  projectDir?: string;
  /** Claude Code's config directory (`$CLAUDE_CONFIG_DIR`, else `~/.claude`): plans live in its `plans/`. */
  claudeConfigDir?: string;
  /** The home directory, written `~` in a shown path. */
  homeDir?: string;
  /** True when `path` is an existing file. Default: `statSync`. */
  isFile?: (path: string) => boolean;
}

const FILE_TOOLS: ReadonlySet<string> = new Set(["Read", "Write", "Edit", "MultiEdit"]);
const PLAN_ATTACHMENTS: ReadonlySet<string> = new Set([
  "plan_mode",
  "plan_mode_reentry",
  "plan_file_reference",
  "plan_mode_exit",
]);
/** A plan-mode slug names the plan file; anything else is not one. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;
/** A file named as a plan: `PLAN.md`, `docs/plans/x.md`, `migration-plan.txt`. */
const PLAN_NAME = /(?:^|\/)[^/]*plan[^/]*\.(?:md|markdown|txt|org|rst)$|\/plans\/[^/]+\.(?:md|markdown|txt)$/i;

/**
 * Finds, from rows read newest first, the plan file the session worked from: the newest of a
 * plan-mode attachment's `planFilePath`, a plan the user approved (`<config>/plans/<slug>.md`), a
 * plan-mode exit by the agent, and a file tool call (`Read`, `Write`, `Edit`) on a file named as a
 * plan (`PLAN.md`, `docs/plans/…`). Never from free text. After a compaction the agent should know
 * where the plan is written rather than re-derive it from the summary; the client re-attaches its
 * own plan file only while plan mode is on.
 *
 * @example
 * ```ts
 * import { planFileTracker } from "./plan_file.ts";
 * const plans = planFileTracker({ projectDir: "/home/me/app", claudeConfigDir: "/home/me/.claude" });
 * for (const row of rowsNewestFirst) { plans.add(row); if (plans.found()) break; }
 * plans.result(); // "docs/plans/cache.md"
 * ```
 */
export function planFileTracker(options: PlanFileOptions = {}): PlanFileTracker {
  let raw: { path: string; base?: string } | undefined;
  const plansDir = options.claudeConfigDir === undefined
    ? undefined
    : resolveFilePath("plans", options.claudeConfigDir);
  const fromSlug = (slug: unknown) =>
    plansDir !== undefined && typeof slug === "string" && SLUG.test(slug) ? `${plansDir}/${slug}.md` : undefined;
  return {
    add(row: TranscriptRow): void {
      if (raw !== undefined) return;
      const base = typeof row.cwd === "string" && row.cwd !== "" ? row.cwd : undefined;
      if (row.type === "attachment") {
        const a = row.attachment as { type?: unknown; planFilePath?: unknown } | undefined;
        if (typeof a === "object" && a !== null && typeof a.type === "string" && PLAN_ATTACHMENTS.has(a.type)) {
          if (typeof a.planFilePath === "string" && a.planFilePath !== "") raw = { path: a.planFilePath, base };
        }
        return;
      }
      if (row.type === "user" && typeof row.planContent === "string" && row.isSidechain !== true) {
        const path = fromSlug(row.slug);
        if (path !== undefined) raw = { path };
        return;
      }
      if (row.type !== "assistant" || row.isSidechain === true) return;
      for (const call of rowToolCalls(row)) {
        if (call.name === "ExitPlanMode") {
          const path = fromSlug(row.slug);
          if (path !== undefined) raw = { path };
        } else if (FILE_TOOLS.has(call.name)) {
          const p = call.input.file_path;
          if (typeof p === "string" && PLAN_NAME.test(p.replaceAll("\\", "/"))) raw = { path: p, base };
        }
        if (raw !== undefined) return;
      }
    },
    found: () => raw !== undefined,
    result(): string | undefined {
      if (raw === undefined) return undefined;
      const absolute = resolveFilePath(raw.path, raw.base ?? options.projectDir);
      const project = options.projectDir;
      const inProject = project !== undefined && isInsidePath(absolute, project);
      const inPlans = plansDir !== undefined && isInsidePath(absolute, plansDir);
      if (!inProject && !inPlans) return undefined;
      const isFile = options.isFile ?? existingFile;
      if (!isFile(absolute)) return undefined;
      if (inProject) return safeFilePath(relativeFilePath(absolute, project), undefined, undefined);
      const home = options.homeDir;
      const shown = home !== undefined && isInsidePath(absolute, home)
        ? "~/" + relativeFilePath(absolute, home)
        : absolute;
      return safeFilePath(shown, undefined, undefined);
    },
  };
}

function existingFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
