// The config files loadConfig() reads, in priority order: shared with the usual prompt's memo
// (lib/events/quiet_prompt_memo.ts), which depends on every one of them, present or not.
import { resolve } from "../node/path.ts";
import { expandHome } from "./_merge.ts";

/** `<home>/.claude/rehydrate.json`, `<project>/.claude/rehydrate.json` and the file `REHYDRATE_CONFIG` names. */
export interface ConfigFiles {
  home: string;
  project: string;
  /** Absolute; null when `REHYDRATE_CONFIG` is unset or empty. */
  explicit: string | null;
}

/** Where the config files of `projectDir` are, for the home directory `home`. */
export function configFiles(projectDir: string, home: string, env: Record<string, string | undefined>): ConfigFiles {
  const name = ".claude/rehydrate.json";
  const explicit = env.REHYDRATE_CONFIG;
  return {
    home: resolve(home, name),
    project: resolve(projectDir, name),
    explicit: explicit ? resolve(projectDir, expandHome(explicit, home)) : null,
  };
}
