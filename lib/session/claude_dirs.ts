import { homeDir } from "../node/home_dir.ts";

/**
 * Claude Code's config directory (`$CLAUDE_CONFIG_DIR`, else `~/.claude`, where it keeps its plan
 * and task files), the home directory and the task list's id when `CLAUDE_CODE_TASK_LIST_ID` names
 * one (else the session's id is), as the snapshot's options take them.
 *
 * @example
 * ```ts
 * import { claudeDirs } from "./claude_dirs.ts";
 * claudeDirs({ HOME: "/home/me" }); // { claudeConfigDir: "/home/me/.claude", homeDir: "/home/me" }
 * ```
 */
export function claudeDirs(
  env: Record<string, string | undefined>,
): { claudeConfigDir: string; homeDir: string; taskListId?: string } {
  const home = homeDir(env);
  const configured = env.CLAUDE_CONFIG_DIR;
  const list = env.CLAUDE_CODE_TASK_LIST_ID;
  return {
    claudeConfigDir: typeof configured === "string" && configured !== "" ? configured : `${home}/.claude`,
    homeDir: home,
    ...(typeof list === "string" && list !== "" ? { taskListId: list } : {}),
  };
}
