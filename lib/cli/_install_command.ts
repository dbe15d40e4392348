/**
 * Private helper of `rehydrate install`: which binary the hook commands name, and how that path
 * is written into a shell command. Claude Code runs a command hook through a shell (bash, also on
 * Windows where it uses Git Bash), so the path is double-quoted whenever it holds anything but
 * plain path characters; on Windows a path with backslashes is always quoted.
 *
 * @module
 */

import { existsSync, realpathSync, statSync } from "../node/fs.ts";
import path from "node:path";

/** A path the Bun single-file executable serves from its own embedded filesystem. */
const VIRTUAL = /^(?:file:\/\/)?\/\$bunfs\/|^(?:file:\/\/\/)?[A-Za-z]:[\\/]~BUN[\\/]/i;
/** Runtimes that mean "running from source": their path must never land in a hook command. */
const RUNTIMES = new Set(["bun", "bun-debug", "deno", "node", "bunx"]);
const SAFE_POSIX = /^[A-Za-z0-9_@%+=:,./-]+$/;
const SPECIAL_IN_DQ = /["$`]/;

/** True for a path inside Bun's embedded filesystem (`/$bunfs/...`, `B:/~BUN/...`). */
export function isVirtualPath(p: string): boolean {
  return VIRTUAL.test(p);
}

/**
 * Quotes a path for a bash command line: bare when it is plain, else in double quotes with `"`,
 * `$` and `` ` `` escaped, and a backslash doubled only where bash would read it as an escape
 * (before `"`, `$`, `` ` ``, `\` or the closing quote), so `C:\Users\me\x.exe` stays readable.
 */
export function quoteShellPath(p: string, platform: string = process.platform): string {
  if (SAFE_POSIX.test(p) && !(platform === "win32" && p.includes("\\"))) return p;
  return `"${escapeInDoubleQuotes(p)}"`;
}

function escapeInDoubleQuotes(p: string): string {
  let out = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (SPECIAL_IN_DQ.test(c)) out += "\\" + c;
    else if (c === "\\") {
      const next = p[i + 1];
      out += next === undefined || next === "\\" || SPECIAL_IN_DQ.test(next) ? "\\\\" : "\\";
    } else out += c;
  }
  return out;
}

/**
 * The command prefix for `binary`: `"$CLAUDE_PROJECT_DIR"/rel/path` when the binary lies inside
 * `projectDir` (so the settings file works from any checkout), else the quoted absolute path.
 */
export function commandPrefix(
  binary: string,
  options: { projectDir?: string; platform?: string } = {},
): string {
  const platform = options.platform ?? process.platform;
  const api = platform === "win32" ? path.win32 : path.posix;
  if (options.projectDir) {
    for (const root of candidates(options.projectDir)) {
      const rel = api.relative(root, binary);
      if (rel !== "" && !rel.startsWith("..") && !api.isAbsolute(rel)) {
        const slashed = rel.split(api.sep).join("/");
        return SAFE_POSIX.test(slashed)
          ? `"$CLAUDE_PROJECT_DIR"/${slashed}`
          : `"$CLAUDE_PROJECT_DIR/${escapeInDoubleQuotes(slashed)}"`;
      }
    }
  }
  return quoteShellPath(binary, platform);
}

function candidates(dir: string): string[] {
  const out = [dir];
  try {
    const real = realpathSync(dir);
    if (real !== dir) out.push(real);
  } catch { /* not on this machine: the plain path only */ }
  return out;
}

/** Where the binary comes from, for {@linkcode resolveBinary}. */
export interface ResolveBinaryOptions {
  /** `--command PATH`, when given: used as given (made absolute), so a stable link survives upgrades. */
  command?: string;
  /** Default `process.execPath`. */
  execPath?: string;
  /** The running module's URL: tells a compiled binary (inside `/$bunfs`) from a source run. */
  moduleUrl?: string;
  /** Directory a relative `--command` is taken from. Default `process.cwd()`. */
  cwd?: string;
}

/**
 * The absolute path of the rehydrate binary the hooks should run, or a one-line reason why there
 * is none: a source run (the executable is bun or deno) needs `--command`; a virtual path is
 * refused; the file must exist and its name contain `rehydrate` (that is how uninstall finds our
 * entries again).
 */
export function resolveBinary(options: ResolveBinaryOptions): { path: string } | { error: string } {
  let chosen: string;
  if (options.command !== undefined) {
    if (options.command === "") return { error: "--command needs a path to the rehydrate binary" };
    chosen = path.resolve(options.cwd ?? process.cwd(), options.command);
    if (isVirtualPath(options.command)) {
      return { error: `--command ${options.command} is inside the binary's virtual filesystem; give the real path` };
    }
  } else {
    const exec = options.execPath ?? process.execPath;
    const name = path.basename(exec).toLowerCase().replace(/\.exe$/, "");
    const url = options.moduleUrl ?? "";
    if (RUNTIMES.has(name) && !isVirtualPath(url)) {
      return {
        error:
          `running from source (${name}); pass --command PATH pointing at the compiled rehydrate binary, e.g. --command dist/rehydrate`,
      };
    }
    if (isVirtualPath(exec)) return { error: `the executable path ${exec} is virtual; pass --command PATH` };
    try {
      chosen = realpathSync(exec);
    } catch {
      chosen = exec;
    }
  }
  if (!existsSync(chosen) || !statSync(chosen).isFile()) {
    return { error: `no rehydrate binary at ${chosen}; build it (bun build.ts) or pass --command PATH` };
  }
  if (!path.basename(chosen).toLowerCase().includes("rehydrate")) {
    return {
      error: `the binary's file name must contain "rehydrate" (got ${
        path.basename(chosen)
      }) so uninstall can find its entries; rename it or link it`,
    };
  }
  return { path: chosen };
}
