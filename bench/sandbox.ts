/**
 * A directory tree the benchmark can put back exactly as it was before every timed run, so each run
 * of each command sees the same state (the state right after a compaction) and no hook's writes
 * (checkpoints, markers, a consumed state file) change what the next command measures. Restoring
 * walks the tree (a few hundred entries, about a millisecond) and rewrites only what changed.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

interface Entry {
  data: Uint8Array;
  mode: number;
  mtimeMs: number;
  size: number;
}

/** A snapshot of a tree that can be restored. */
export interface Snapshot {
  /** Puts the tree back: removes new files and directories, rewrites changed or missing files. */
  restore(): void;
  /** Files in the snapshot. */
  files: number;
}

function walk(root: string, onFile: (path: string) => void, onDir: (path: string) => void): void {
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    const st = lstatSync(path);
    if (st.isDirectory()) {
      onDir(path);
      walk(path, onFile, onDir);
    } else {
      onFile(path);
    }
  }
}

/**
 * Takes a snapshot of every file under `root` (contents in memory: keep the tree small).
 *
 * @example
 * ```ts
 * const snap = snapshotTree("/tmp/run");
 * // ... run a hook that writes under /tmp/run ...
 * snap.restore();
 * ```
 */
export function snapshotTree(root: string): Snapshot {
  const files = new Map<string, Entry>();
  const dirs = new Set<string>();
  walk(root, (path) => {
    const st = lstatSync(path);
    files.set(path, { data: readFileSync(path), mode: st.mode & 0o777, mtimeMs: st.mtimeMs, size: st.size });
  }, (path) => dirs.add(path));
  const put = (path: string, e: Entry) => {
    rmSync(path, { force: true, recursive: true });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, e.data, { mode: e.mode });
    // Remember the new mtime, so an untouched file is not rewritten on every restore.
    e.mtimeMs = lstatSync(path).mtimeMs;
  };
  return {
    files: files.size,
    restore() {
      const seen = new Set<string>();
      const extraDirs: string[] = [];
      walk(root, (path) => {
        const e = files.get(path);
        if (!e) {
          rmSync(path, { force: true });
          return;
        }
        seen.add(path);
        const st = lstatSync(path);
        if (!st.isFile() || st.size !== e.size || st.mtimeMs !== e.mtimeMs || (st.mode & 0o777) !== e.mode) {
          put(path, e);
        }
      }, (path) => {
        if (!dirs.has(path)) extraDirs.push(path);
      });
      for (const d of extraDirs) rmSync(d, { recursive: true, force: true });
      for (const [path, e] of files) if (!seen.has(path)) put(path, e);
      for (const d of dirs) mkdirSync(d, { recursive: true });
    },
  };
}
