import { homeDir } from "../node/home_dir.ts";
import { isAbsolute, join } from "../node/path.ts";

/**
 * The Codex CLI's home, where its user `config.toml`, `hooks.json` and `sessions/` live:
 * `$CODEX_HOME` when it is an absolute path, else `~/.codex` (`home`, default the user's).
 *
 * @example
 * ```ts
 * import { codexHome } from "./codex_home.ts";
 * codexHome({ CODEX_HOME: "/srv/codex" }); // "/srv/codex"
 * codexHome({}, "/home/me"); // "/home/me/.codex"
 * ```
 */
export function codexHome(env: Record<string, string | undefined>, home?: string): string {
  const set = env.CODEX_HOME;
  if (typeof set === "string" && set !== "" && isAbsolute(set)) return set;
  return join(home ?? homeDir(env), ".codex");
}
