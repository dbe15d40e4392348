import { statSync } from "../node/fs.ts";
import { resolve } from "../node/path.ts";
import { loadConfig } from "../config/load_config.ts";
import type { OrchSettings } from "../orchestration/paths.ts";

/** Parsed arguments of an orchestration CLI verb. */
export type OrchCliArgs =
  | { help: true }
  | { help: false; projectDir: string; settings: OrchSettings }
  /** `usage`: the command line is wrong (exit 2); else the directory cannot be used (exit 1). */
  | { error: string; usage: boolean };

/**
 * Parses `[--project DIR] [--help]` and loads the config of that project.
 *
 * @example
 * ```ts
 * const parsed = parseOrchCliArgs(["--project", "/w"], process.env);
 * if ("error" in parsed) console.error(parsed.error);
 * ```
 */
export function parseOrchCliArgs(args: string[], env: Record<string, string | undefined>): OrchCliArgs {
  let project: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") return { help: true };
    if (a === "--project" || a === "-p") {
      const v = args[++i];
      if (v === undefined || v === "") return { error: `${a} needs a directory`, usage: true };
      project = v;
    } else if (a.startsWith("--project=")) {
      project = a.slice("--project=".length);
      if (project === "") return { error: "--project needs a directory", usage: true };
    } else {
      return {
        error: a.startsWith("-") ? `unknown option ${a}` : `unexpected argument ${JSON.stringify(a)}`,
        usage: true,
      };
    }
  }
  const projectDir = resolve(project ?? (env.CLAUDE_PROJECT_DIR || process.cwd()));
  try {
    if (!statSync(projectDir).isDirectory()) return { error: `no directory ${projectDir}`, usage: false };
  } catch {
    return { error: `no directory ${projectDir}`, usage: false };
  }
  return { help: false, projectDir, settings: loadConfig(projectDir, { env }).config.orchestration };
}
