import { homeDir } from "../node/home_dir.ts";
import { isAbsolute, join } from "../node/path.ts";

/** Options for {@linkcode stateDir}. */
export interface StateDirOptions {
  /** Environment to read. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Home directory. Default `os.homedir()`. */
  homeDir?: string;
  /** Platform. Default `process.platform`. */
  platform?: string;
  /** A directory from the config (`stateDir`), used when the environment names none. */
  configured?: string | null;
}

/**
 * Where rehydrate keeps its per-user state: markers, per-session records, the
 * debug log. Never a shared world-writable path such as `/tmp`, where another
 * local user could pre-create or link our files.
 *
 * Order: `REHYDRATE_STATE_DIR`, then the config's `stateDir` (`~/` expanded),
 * then the platform's per-user state location: `$XDG_STATE_HOME/rehydrate`
 * or `~/.local/state/rehydrate` on Linux and other Unix systems,
 * `~/Library/Application Support/rehydrate` on macOS,
 * `%LOCALAPPDATA%\rehydrate\state` on Windows.
 *
 * Only computes the path; {@linkcode ensurePrivateDir} creates and checks it.
 *
 * @example
 * ```ts
 * stateDir({ env: { XDG_STATE_HOME: "/home/a/.state" }, platform: "linux", homeDir: "/home/a" });
 * // "/home/a/.state/rehydrate"
 * ```
 */
export function stateDir(options: StateDirOptions = {}): string {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const home = options.homeDir ?? homeDir(env);
  const fromEnv = env.REHYDRATE_STATE_DIR;
  if (fromEnv && isAbsolute(fromEnv)) return fromEnv;
  const configured = options.configured;
  if (configured) {
    if (configured === "~" || configured.startsWith("~/")) return join(home, configured.slice(1));
    if (isAbsolute(configured)) return configured;
  }
  if (platform === "win32") {
    const local = env.LOCALAPPDATA;
    return local ? join(local, "rehydrate", "state") : join(home, "AppData", "Local", "rehydrate", "state");
  }
  if (platform === "darwin") return join(home, "Library", "Application Support", "rehydrate");
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "rehydrate");
  return join(home, ".local", "state", "rehydrate");
}
