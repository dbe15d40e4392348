import { readdirSync } from "../node/fs.ts";
import { dirname, join } from "../node/path.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import type { QuietFacts } from "../orchestration/monitor.ts";
import type { FillWarningFacts } from "../session/fill_warning.ts";
import { configFiles } from "../config/config_files.ts";
import { homeDir } from "../node/home_dir.ts";
import { stateDir } from "../state/state_dir.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { ORCHESTRATION_FILE } from "../orchestration/paths.ts";
import {
  QUIET_MEMO_SCHEMA,
  QUIET_SWITCH,
  type QuietDep,
  type QuietMemo,
  quietMemoEnv,
  quietMemoPath,
  quietSignature,
} from "./_quiet_memo.ts";
import { VERSION } from "../hook/version.ts";

/**
 * Files modified this recently are not trusted by their mtime (git's "racy" files): a second write
 * within the file system's timestamp granularity (up to 2 s on FAT) would leave it unchanged, so
 * their memo waits for a later prompt. A write after the memo moves an older mtime into a later
 * granule, so the ctime (which `touch` or a chmod makes new) need not be old too.
 */
const RACY_MS = 2000;

/**
 * Leaves the memo that lets the next prompt take the fast path (lib/events/quiet_prompt.ts), after a
 * UserPromptSubmit that re-delivered nothing and whose only output, if any, was the context
 * monitor or the everyday fill warning: `facts` when the monitor ran with no alert or reminder due,
 * the level's full reminders used up and one orchestrated run; `null` when the workspace has no
 * orchestrated run at all (the memo then says the hook prints and writes nothing but, with
 * `options.fill`, the fill warning at another level; its state file is one of the memo's files). It lists every file the outcome depended on
 * with its fingerprint: the config files (present or not), the per-user state directory, the
 * compaction record and its folder (claims), the session record, the runs folder and every
 * `<projectsDir>/<run>/ORCHESTRATION.yaml` candidate, and with a monitor the workflow's state
 * folder, the checkpoints folder and each checkpoint. It writes nothing when debugging is on, when
 * the state directory comes from the config (the fast path finds it without one), when `facts` is
 * null but a run exists, or when any of those files is a symbolic link or was changed in the last
 * two seconds (a missing one: its folder), since a change while this hook ran would leave the memo
 * describing files the answer was not computed from. Returns whether it wrote a memo. Throws on I/O errors (the caller guards it).
 *
 * @example
 * ```ts
 * let quiet: QuietFacts | null = null;
 * const text = orchestrationPromptContext(ctx, { onQuiet: (facts) => quiet = facts });
 * writeQuietMemo(ctx, quiet, Math.min(ctx.config().budget.maxChars, 10_000));
 * ```
 */
export function writeQuietMemo(
  ctx: HookContext,
  facts: QuietFacts | null,
  maxChars: number,
  options: { fill?: FillWarningFacts | null } = {},
): boolean {
  const key = ctx.sessionKey;
  if (key === null || ctx.env[QUIET_SWITCH] === "0") return false;
  const dir = ctx.stateDir();
  // A memo left from an earlier prompt needs no removal: it holds only while everything it
  // recorded is as it was, and then it still gives this hook's outcome.
  // The folder first: creating it changes the state directory's mtime, which the check of a missing
  // compaction record reads.
  ensurePrivateDir(join(dir, "quiet"));
  const memo = buildMemo(ctx, facts, options.fill ?? null, maxChars, dir, key);
  if (memo === null) return false;
  writeFileAtomic(quietMemoPath(dir, key), JSON.stringify(memo) + "\n", { sync: false });
  return true;
}

function buildMemo(
  ctx: HookContext,
  facts: QuietFacts | null,
  fill: FillWarningFacts | null,
  maxChars: number,
  dir: string,
  key: string,
): QuietMemo | null {
  const flag = ctx.env.REHYDRATE_DEBUG;
  const config = ctx.config();
  if (flag === "1" || flag === "true" || (flag !== "0" && flag !== "false" && config.debug === true)) return null;
  if (dir !== stateDir({ env: ctx.env })) return null;

  const files = configFiles(ctx.projectDir, homeDir(ctx.env), ctx.env);
  const content = [files.home, files.project];
  if (files.explicit !== null) content.push(files.explicit);
  const projectsDir = facts?.rt.paths.projectsDir ?? join(ctx.projectDir, config.orchestration.projectsDir);
  content.push(
    join(dir, "compactions"),
    join(dir, "compactions", `${key}.json`),
    join(dir, "sessions", `${key}.json`),
    projectsDir,
  );
  let names: string[] = [];
  try {
    names = readdirSync(projectsDir);
  } catch (err) {
    if (facts !== null) throw err;
  }
  const runs: string[] = [];
  for (const name of names) {
    if (!name.startsWith(".")) runs.push(join(projectsDir, name, ORCHESTRATION_FILE));
  }
  content.push(...runs);
  if (facts !== null) content.push(facts.rt.paths.checkpointsDir, ...facts.checkpoints);
  if (fill !== null) content.push(fill.statePath);
  const deps: QuietDep[] = [];
  const racy = ctx.now.getTime() - RACY_MS;
  let present = 0;
  for (const p of content) {
    const sig = quietSignature(p, "content");
    if (sig === "link" || sig === "?") return null;
    if (sig !== "-") {
      if (Number(sig.split(":")[5]) > racy) return null;
      if (runs.includes(p)) {
        // The runs the answer was for: none without facts, else the one active run.
        if (facts === null || p !== facts.rt.layout.active.path) return null;
        present++;
      }
    } else if (dirname(p) !== facts?.rt.paths.stateDir && recentlyChanged(dirname(p), racy)) {
      return null; // perhaps removed while this hook ran: its folder's mtime says so
    }
    deps.push([p, "content", sig]);
  }
  if (facts !== null && present !== 1) return null;
  for (const p of facts === null ? [dir] : [dir, facts.rt.paths.stateDir]) {
    const sig = quietSignature(p, "identity");
    if (sig === "link" || sig === "?" || sig === "-") return null;
    deps.push([p, "identity", sig]);
  }
  return {
    schema_version: QUIET_MEMO_SCHEMA,
    version: VERSION,
    session_id: ctx.input.session_id,
    transcript_path: ctx.input.transcript_path,
    project_dir: ctx.projectDir,
    env: quietMemoEnv(ctx.env),
    deps,
    monitor: facts === null ? null : {
      fill: { model: facts.fill.model, window_tokens: facts.fill.windowTokens, budget_bytes: facts.fill.budgetBytes },
      thresholds: { ...facts.rt.settings.thresholds },
      max_chars: maxChars,
      state_path: facts.rt.paths.monitorStatePath,
      state: { ...facts.state },
    },
    fill_warning: fill === null ? null : {
      thresholds: [...fill.thresholds],
      crossed: fill.crossed,
      fill: {
        model: fill.fill.model,
        window_tokens: fill.fill.windowTokens,
        max_window_tokens: fill.fill.maxWindowTokens,
        budget_bytes: fill.fill.budgetBytes,
      },
    },
  };
}

/** True when the folder's mtime (an entry added, removed or renamed) is newer than `since`. */
function recentlyChanged(dir: string, since: number): boolean {
  const sig = quietSignature(dir, "content");
  return sig !== "-" && (sig === "link" || sig === "?" || Number(sig.split(":")[5]) > since);
}
