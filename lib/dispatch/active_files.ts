import { readdirSync, realpathSync } from "../node/fs.ts";
import { homeDir } from "../node/home_dir.ts";
import { dirname, isAbsolute, join, relative, resolve, sep } from "../node/path.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { type DispatchFile, dispatchFile } from "./dispatch_file.ts";
import { isRegularFile, readUserFile } from "../state/files.ts";

/** What a handler session must re-read, from {@linkcode dispatchActiveFiles}. */
export interface HandlerFiles {
  /** The handler state file when configured and present, else null. */
  stateFile: string | null;
  /** The dispatch files whose status is active, in the order found. */
  dispatches: DispatchFile[];
}

/** Options for {@linkcode dispatchActiveFiles}. */
export interface DispatchActiveFilesOptions {
  /** Most dispatch files returned. Default 20. */
  max?: number;
}

/** The handler's state file when `dispatch.handlerStateFile` is not set (docs/dispatch.md), in the project dir. */
export const DEFAULT_HANDLER_STATE_FILE = "handler-state.md";

/** Where the handler keeps its dispatch files (docs/dispatch.md), relative to the project dir. */
export const DEFAULT_DISPATCH_DIR = "docs/handler-dispatches";

// A path ending in .md with at least one slash, in text, backticks, quotes or a markdown link.
const MD_PATH = /(?:^|[\s(<[`'"])((?:~\/|\.{1,2}\/|\/|[A-Za-z0-9_.-]+\/)[^\s()<>[\]`'"|]*\.md)(?=$|[\s)\]>`'",;:|#])/gm;

/**
 * Finds the files a handler session re-reads after compaction: its state file
 * (`dispatch.handlerStateFile`, `~/` expanded, relative to the project
 * directory; when it is not set, {@linkcode DEFAULT_HANDLER_STATE_FILE} in the project
 * directory if that is a regular file whose real path stays inside the project) and the active dispatch files, those whose status is stated and
 * not finished. Dispatch files are the `.md` paths the state file mentions
 * (with at least one `/`; relative ones are taken from the state file's directory), then the `.md` files of the dispatch directory
 * (`dispatch.dispatchDir`, default
 * {@linkcode DEFAULT_DISPATCH_DIR}), sorted by name, without duplicates.
 * Missing files are skipped. Never throws.
 *
 * @example
 * ```ts
 * const { stateFile, dispatches } = dispatchActiveFiles(ctx);
 * const files = [stateFile, ...dispatches.map((d) => d.path)].filter((f) => f !== null);
 * ```
 */
export function dispatchActiveFiles(ctx: HookContext, options: DispatchActiveFilesOptions = {}): HandlerFiles {
  const max = options.max ?? 20;
  const config = ctx.config().dispatch;
  const home = homeDir(ctx.env);
  const toPath = (p: string): string =>
    p.startsWith("~/") ? join(home, p.slice(2)) : isAbsolute(p) ? p : resolve(ctx.projectDir, p);
  let stateFile: string | null = null;
  const candidates: string[] = [];
  const statePath = config.handlerStateFile ? toPath(config.handlerStateFile) : defaultStateFile(ctx.projectDir);
  if (statePath !== null) {
    const path = statePath;
    const text = readUserFile(path, 256 * 1024);
    if (text !== null) {
      stateFile = path;
      const base = dirname(path);
      for (const m of text.matchAll(MD_PATH)) {
        if (candidates.length >= max * 2) break;
        const ref = m[1];
        candidates.push(ref.startsWith("~/") || isAbsolute(ref) ? toPath(ref) : resolve(base, ref));
      }
    }
  }
  const dir = toPath(config.dispatchDir || DEFAULT_DISPATCH_DIR);
  try {
    const names = readdirSync(dir).filter((n) => n.endsWith(".md") && !n.startsWith(".")).sort();
    for (const name of names.slice(0, 200)) candidates.push(join(dir, name));
  } catch { /* no dispatch directory */ }
  const seen = new Set<string>(stateFile === null ? [] : [stateFile]);
  const dispatches: DispatchFile[] = [];
  for (const path of candidates) {
    if (dispatches.length >= max) break;
    if (seen.has(path)) continue;
    seen.add(path);
    if (!isRegularFile(path)) continue;
    const d = dispatchFile(path);
    if (d !== null && d.active) dispatches.push(d);
  }
  return { stateFile, dispatches };
}

/**
 * `handler-state.md` of the project directory, by its real path, when it is a regular file
 * inside the project; null otherwise. A link that leaves the project is refused: a cloned
 * repository must not make the handler re-read a file elsewhere.
 */
function defaultStateFile(projectDir: string): string | null {
  try {
    const root = realpathSync(projectDir);
    const real = realpathSync(join(root, DEFAULT_HANDLER_STATE_FILE));
    const rel = relative(root, real);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel) || rel.split(sep).includes("..")) return null;
    return isRegularFile(real) ? join(projectDir, DEFAULT_HANDLER_STATE_FILE) : null;
  } catch {
    return null;
  }
}
