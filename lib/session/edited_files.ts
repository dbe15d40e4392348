import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { rowToolCalls } from "../transcript/tool_calls.ts";
import { safeFilePath } from "./_paths.ts";
import { toolResults } from "./_results.ts";

/** One file the session changed. */
export interface EditedFile {
  /** Normalised (`/` separators, lower-case drive letter), relative to the project when inside it; redacted. */
  path: string;
  /** True when the session created it (a `Write` that created the file, or no backup in the file history). */
  created?: boolean;
}

/** The files a session changed, most recently changed first. */
export interface EditedFiles {
  files: EditedFile[];
  /** How many distinct files, `files` being the first `max` of them. */
  total: number;
}

/** Options of {@linkcode editedFileTracker} and {@linkcode editedFiles}. */
export interface EditedFilesOptions {
  /** Paths inside it are made relative to it; relative paths of the file history resolve against it. Default: the newest row's `cwd`. */
  cwd?: string;
  /** Most files listed. Default {@linkcode MAX_EDITED_FILES} (200). */
  max?: number;
  /**
   * What the file history's relative keys are relative to: the session's original working
   * directory (Claude Code keys a file by its path relative to the directory the session started
   * in, `getOriginalCwd()`, and by its absolute path outside it). Default: `cwd`. A session whose
   * working directory changed would otherwise list such a file twice, once under a wrong path.
   */
  historyBase?: string;
}

/** Collects the edited files from rows read newest first. */
export interface EditedFileTracker {
  /** Feeds the next row (each older than the one before). */
  add(row: TranscriptRow): void;
  /**
   * Adds, as older than every row fed, the files a snapshot kept of the rows before them (the
   * snapshot of the previous compaction, its paths as shown for the same `cwd`).
   */
  older(files: EditedFiles): void;
  /** The files from the rows fed so far. */
  result(): EditedFiles;
}

/** Default cap of {@linkcode EditedFiles.files}. */
export const MAX_EDITED_FILES = 200;
/** Distinct files tracked while reading. */
const MAX_TRACKED = 5000;
const MAX_FAILED = 10_000;
const EDIT_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);

interface Found {
  /** As the transcript names it (absolute, or relative to `base`). */
  raw: string;
  base?: string;
  created: boolean;
  /** From the file history only: when it was backed up, for the order. */
  backupTime?: string;
}

/**
 * Collects the files the session changed, from rows read newest first: the targets of `Edit`,
 * `Write`, `MultiEdit` and `NotebookEdit` calls whose result was not an error (most recent first),
 * then the files Claude Code's file history tracks (the keys of `trackedFileBackups` in
 * `file-history-snapshot` rows, which are cumulative, so they also name edits older than the rows
 * read; newest backup first). Paths are normalised, resolved against the row's `cwd`, and shown
 * relative to `cwd` when inside it; empty, overlong and control-character paths are dropped.
 *
 * @example
 * ```ts
 * import { editedFileTracker } from "./edited_files.ts";
 * import { scanTranscript } from "../transcript/scan_transcript.ts";
 *
 * const tracker = editedFileTracker({ cwd: "/home/me/app" });
 * for (const row of scanTranscript("/tmp/session.jsonl")) tracker.add(row);
 * const { files, total } = tracker.result(); // [{ path: "src/a.ts" }, …], 12
 * ```
 */
export function editedFileTracker(options: EditedFilesOptions = {}): EditedFileTracker {
  const max = options.max !== undefined && options.max >= 0 ? Math.floor(options.max) : MAX_EDITED_FILES;
  const failed = new Set<string>();
  const creates = new Set<string>();
  const fromCalls: Found[] = [];
  const fromHistory = new Map<string, Found>();
  let newestCwd: string | undefined;
  let olderFiles: EditedFiles | undefined;

  const addResults = (row: TranscriptRow) => {
    for (const r of toolResults(row)) {
      if (r.isError) {
        if (failed.size < MAX_FAILED) failed.add(r.id);
      } else if (r.detail?.type === "create" && creates.size < MAX_FAILED) creates.add(r.id);
    }
  };
  const addCalls = (row: TranscriptRow, cwd: string | undefined) => {
    for (const call of rowToolCalls(row, EDIT_TOOLS)) {
      const created = creates.delete(call.id);
      if (failed.delete(call.id)) continue;
      const raw = typeof call.input.file_path === "string" ? call.input.file_path : call.input.notebook_path;
      if (typeof raw !== "string" || raw === "" || fromCalls.length >= MAX_TRACKED) continue;
      const f: Found = { raw, created };
      if (cwd !== undefined) f.base = cwd;
      fromCalls.push(f);
    }
  };
  const addSnapshot = (row: TranscriptRow) => {
    const snapshot = row.snapshot;
    if (typeof snapshot !== "object" || snapshot === null) return;
    const backups = (snapshot as { trackedFileBackups?: unknown }).trackedFileBackups;
    if (typeof backups !== "object" || backups === null || Array.isArray(backups)) return;
    for (const [key, value] of Object.entries(backups as Record<string, unknown>)) {
      if (key === "" || fromHistory.size >= MAX_TRACKED || fromHistory.has(key)) continue;
      const v = typeof value === "object" && value !== null
        ? value as { backupFileName?: unknown; backupTime?: unknown; version?: unknown }
        : {};
      const f: Found = { raw: key, created: v.backupFileName === null && v.version === 1 };
      if (typeof v.backupTime === "string") f.backupTime = v.backupTime;
      fromHistory.set(key, f);
    }
  };

  return {
    add(row: TranscriptRow): void {
      const cwd = typeof row.cwd === "string" && row.cwd !== "" ? row.cwd : undefined;
      if (newestCwd === undefined && cwd !== undefined && row.isSidechain !== true) newestCwd = cwd;
      if (row.type === "user") addResults(row);
      else if (row.type === "assistant") addCalls(row, cwd);
      else if (row.type === "file-history-snapshot") addSnapshot(row);
    },
    older(files: EditedFiles): void {
      olderFiles ??= files;
    },
    result(): EditedFiles {
      const dir = options.cwd ?? newestCwd;
      const seen = new Map<string, EditedFile>();
      // A file edited a thousand times is one path to check: each spelling is checked once.
      const shown = new Map<string, string | undefined>();
      const take = (f: Found, base: string | undefined) => {
        const key = base === undefined ? f.raw : f.raw + "\0" + base;
        let path = shown.get(key);
        if (path === undefined && !shown.has(key)) {
          path = safeFilePath(f.raw, base, dir);
          shown.set(key, path);
        }
        if (path === undefined) return;
        const old = seen.get(path);
        if (old === undefined) seen.set(path, f.created ? { path, created: true } : { path });
        else if (f.created && old.created !== true) old.created = true;
      };
      for (const f of fromCalls) take(f, f.base ?? dir);
      // The older snapshot's files come before the file history's: the history is cumulative, so
      // it names the older rows' files too, which a read of every row would have placed by their
      // calls, as the older snapshot did.
      let beyond = 0;
      if (olderFiles !== undefined) {
        for (const f of olderFiles.files) {
          const old = seen.get(f.path);
          if (old === undefined) {
            seen.set(f.path, f.created === true ? { path: f.path, created: true } : { path: f.path });
          } else if (f.created === true && old.created !== true) old.created = true;
        }
        // Files the older snapshot counted but did not list: counted still, never named.
        beyond = Math.max(0, olderFiles.total - olderFiles.files.length);
      }
      const history = [...fromHistory.values()].sort((a, b) =>
        (b.backupTime ?? "") < (a.backupTime ?? "") ? -1 : (b.backupTime ?? "") > (a.backupTime ?? "") ? 1 : 0
      );
      // A relative key is relative to the session's original directory (`historyBase`).
      for (const f of history) take(f, options.historyBase ?? dir);
      const all = [...seen.values()];
      return { files: all.slice(0, max), total: all.length + beyond };
    },
  };
}

/**
 * The files the session changed, from `rows` (newest first): {@linkcode editedFileTracker} over
 * all of them.
 *
 * @example
 * ```ts
 * import { editedFiles } from "./edited_files.ts";
 * import { scanTranscript } from "../transcript/scan_transcript.ts";
 *
 * const { files } = editedFiles(scanTranscript("/tmp/session.jsonl"), { cwd: "/home/me/app", max: 20 });
 * ```
 */
export function editedFiles(rows: Iterable<TranscriptRow>, options: EditedFilesOptions = {}): EditedFiles {
  const tracker = editedFileTracker(options);
  for (const row of rows) tracker.add(row);
  return tracker.result();
}
