import { homeDir } from "../node/home_dir.ts";

/**
 * Claude Code's config directory (`$CLAUDE_CONFIG_DIR`, else `~/.claude`, where it keeps its plan
 * files) and the home directory, as the snapshot's options take them.
 *
 * @example
 * ```ts
 * import { claudeDirs } from "./claude_dirs.ts";
 * claudeDirs({ HOME: "/home/me" }); // { claudeConfigDir: "/home/me/.claude", homeDir: "/home/me" }
 * ```
 */
export function claudeDirs(env: Record<string, string | undefined>): { claudeConfigDir: string; homeDir: string } {
  const home = homeDir(env);
  const configured = env.CLAUDE_CONFIG_DIR;
  return {
    claudeConfigDir: typeof configured === "string" && configured !== "" ? configured : `${home}/.claude`,
    homeDir: home,
  };
}
