import { statSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { readOrchestrationResumption, type ResumptionState } from "./resumption.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { hashName } from "../node/hash_name.ts";

/** Format of the cache file; another version is ignored. */
const VERSION = 1;
/**
 * A file whose content changed this recently (mtime) is never cached ("racy", as git calls it):
 * on a filesystem with coarse timestamps (FAT: 2 s) a second edit of the same size could keep the
 * same signature. The ctime is in the signature but not in this test: a copy or chmod moves it
 * without changing the content.
 */
const RACY_MS = 3000;

interface CacheFile {
  v: number;
  file: string;
  key: string;
  state: ResumptionState;
}

/**
 * `readOrchestrationResumption(path)` through a per-user cache: the parsed, redacted state of an
 * ORCHESTRATION.yaml is kept in `<stateDir>/cache/` under the file's signature (device, inode,
 * size, mtime and ctime), so the hooks that follow the one that parsed it (PostCompact after
 * PreCompact, SessionStart, the prompt after a compaction) read a small JSON file instead of
 * parsing the YAML again, which a cold hook pays dearly for (bench/README.md). Any doubt (no state
 * directory, a missing, corrupt or foreign cache file, another signature) parses the file. The
 * returned state has no `document` (callers that compare documents, the PostToolUse staleness
 * check, parse directly). Never throws.
 *
 * @example
 * ```ts
 * const state = readResumptionCached(ctx, "/repo/projects/PROJ-001/ORCHESTRATION.yaml");
 * state.nextStep; // same as readOrchestrationResumption(path).nextStep
 * ```
 */
export function readResumptionCached(ctx: HookContext, path: string): ResumptionState {
  let key: string;
  let mtimeMs: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return { ...readOrchestrationResumption(path), document: undefined };
    key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    mtimeMs = st.mtimeMs;
  } catch {
    return { ...readOrchestrationResumption(path), document: undefined };
  }
  let cachePath: string | null = null;
  try {
    const dir = join(ctx.stateDir(), "cache");
    cachePath = join(dir, `orchestration-${hashName(path)}.json`);
    const read = readPrivateFile(cachePath, { maxBytes: 512 * 1024 });
    if (read.ok) {
      const c = JSON.parse(read.text) as Partial<CacheFile>;
      if (c.v === VERSION && c.file === path && c.key === key && typeof c.state === "object" && c.state !== null) {
        return { ...c.state, document: undefined };
      }
    }
  } catch { /* no state directory or a corrupt cache: parse */ }
  const state: ResumptionState = { ...readOrchestrationResumption(path), document: undefined };
  if (cachePath !== null && ctx.now.getTime() - mtimeMs > RACY_MS) {
    try {
      ensurePrivateDir(join(ctx.stateDir(), "cache"));
      const entry: CacheFile = { v: VERSION, file: path, key, state };
      writeFileAtomic(cachePath, JSON.stringify(entry), { sync: false });
    } catch (err) {
      ctx.log(`orchestration cache not written: ${(err as Error).message}`);
    }
  }
  return state;
}
