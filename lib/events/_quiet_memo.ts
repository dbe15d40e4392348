// What the usual prompt's fast path and the full UserPromptSubmit hook share: the memo file's
// shape, where it lives, the environment it is keyed by and how a file's state is fingerprinted.
// See lib/events/quiet_prompt.ts (the reader) and lib/events/quiet_prompt_memo.ts (the writer).
import { lstatSync } from "../node/fs.ts";
import { join } from "../node/path.ts";

/** Format of the memo file (`schemas/quiet_prompt_memo.v1.json`); another value is ignored. */
export const QUIET_MEMO_SCHEMA = 1;

/**
 * Environment variables the full hook's outcome depends on (the project and state directories,
 * the home directory and the config file it names, debugging, the auto-compact window the fill
 * warning measures against). A memo written under other values
 * is not used.
 */
export const QUIET_MEMO_ENV: readonly string[] = [
  "CLAUDE_PROJECT_DIR",
  "REHYDRATE_STATE_DIR",
  "REHYDRATE_CONFIG",
  "REHYDRATE_DEBUG",
  "HOME",
  "USERPROFILE",
  "XDG_STATE_HOME",
  "LOCALAPPDATA",
  "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
  "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
];

/** The environment variable that turns the fast path off (`0`): every prompt runs the full hook. */
export const QUIET_SWITCH = "REHYDRATE_QUIET";

/**
 * A file the full hook read, and what it was like: `content` for files and for directories whose
 * listing was read (mtime and ctime change with any write, rename or new entry), `identity` for
 * directories only written into (their owner, mode and inode are what the hook checked).
 */
export type QuietDep = [path: string, kind: "content" | "identity", signature: string];

/** The memo (`<stateDir>/quiet/<session key>.json`). */
export interface QuietMemo {
  schema_version: 1;
  /** The rehydrate version that wrote it: another binary does not trust it. */
  version: string;
  session_id: string;
  transcript_path: string;
  /** The project directory the hook resolved. */
  project_dir: string;
  /** {@linkcode QUIET_MEMO_ENV}'s values (absent ones left out). */
  env: Record<string, string>;
  /** Every file and directory the outcome depended on, besides the transcript and the monitor state. */
  deps: QuietDep[];
  /** The context monitor's part, or null when the workspace has no orchestrated run (nothing to print or write). */
  monitor: QuietMonitor | null;
  /**
   * Without a monitor, the everyday fill warning's part: null when it is off (nothing to print or
   * write). A memo without it (another writer) is not used.
   */
  fill_warning?: QuietFillWarning | null;
}

/** What the fast path needs to tell whether the everyday fill warning would speak or write. */
export interface QuietFillWarning {
  /** `session.fillWarnings`. */
  thresholds: number[];
  /** The level on record (`<stateDir>/fill/<key>.json`, one of the memo's files): the highest threshold reached, 0 for none. */
  crossed: number;
  /** How the fill is measured. */
  fill: { model: string | null; window_tokens: number | null; max_window_tokens: number | null; budget_bytes: number };
}

/** What the fast path needs to measure the fill and rewrite the monitor state as the full hook would. */
export interface QuietMonitor {
  /** How the context fill is measured. */
  fill: { model: string | null; window_tokens: number | null; budget_bytes: number };
  /** The monitor's thresholds (fractions of the window). */
  thresholds: { warning: number; critical: number; compaction: number };
  /** The most characters UserPromptSubmit injects. */
  max_chars: number;
  /** The context-monitor state file and what the full hook wrote into it. */
  state_path: string;
  state: Record<string, unknown>;
}

/** Where the memo of a session lives in the per-user state directory. */
export function quietMemoPath(stateDir: string, sessionKey: string): string {
  return join(stateDir, "quiet", `${sessionKey}.json`);
}

/** The environment values a memo is keyed by. */
export function quietMemoEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of QUIET_MEMO_ENV) {
    const v = env[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/**
 * A file's fingerprint, from `lstat`: `-` when it does not exist, `link` for a symbolic link
 * (whose target's changes lstat cannot see: a memo never depends on one), `?` when it cannot be
 * examined.
 */
export function quietSignature(path: string, kind: "content" | "identity"): string {
  let st;
  try {
    st = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return "?";
  }
  if (st === undefined) return "-";
  if (st.isSymbolicLink()) return "link";
  const id = `${st.dev}:${st.ino}:${st.mode}:${st.uid}`;
  return kind === "identity" ? id : `${id}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}
