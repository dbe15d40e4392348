/**
 * Private helper of `rehydrate install`, `uninstall` and `doctor` with `--agent codex`: the hooks
 * of the OpenAI Codex CLI. Codex reads Claude Code's hook format from a `hooks.json` in each of its
 * config layers: the user's (`$CODEX_HOME/hooks.json`, `~/.codex` by default) and a trusted
 * project's (`<project>/.codex/hooks.json`). It runs a hook only once the user trusted it; the
 * trust is kept in the user's `config.toml` (`_codex_trust.ts`, `_codex_toml.ts`), so the install
 * writes both files and the uninstall takes both back.
 *
 * @module
 */
import { realpathSync, statSync } from "../node/fs.ts";
import { join, resolve } from "../node/path.ts";
import { codexHome } from "../codex/codex_home.ts";
import type { CliIo } from "./main.ts";
import { quoteShellPath, resolveBinary } from "./_install_command.ts";
import { readOptions, resolveEnv, type VerbEnv } from "./_install_detect.ts";
import { unifiedDiff } from "./_install_diff.ts";
import { commandHook, type HookSpec, planInstall, planUninstall } from "./_install_plan.ts";
import {
  deleteSettings,
  readSettings,
  type SettingsText,
  writeFailure,
  writeSettings,
} from "./_install_settings_file.ts";
import { type CodexHandler, codexHandlers } from "./_codex_trust.ts";
import { projectTrusted, removeTrustedHashes, setTrustedHashes, trustedHashes } from "./_codex_toml.ts";
import { failure, usageError } from "./_usage.ts";

/**
 * The hooks rehydrate registers for Codex: the everyday layer's three. SessionStart on the
 * sources that can deliver a compaction's context (`compact`; `resume` and `fork` when it never
 * arrived), so a new thread's start does not wait for it.
 */
export const CODEX_HOOKS: readonly HookSpec[] = [
  { hook: "pre-compact", event: "PreCompact", matcher: "manual|auto", timeout: 60 },
  { hook: "session-start", event: "SessionStart", matcher: "compact|resume|fork", timeout: 30 },
  { hook: "user-prompt-submit", event: "UserPromptSubmit", timeout: 10 },
];
/** What follows the hook name in each command. */
export const CODEX_SUFFIX = " --agent codex";

/** Where a Codex install lives: its `hooks.json`, and the user's `config.toml` that trusts it. */
export interface CodexFiles {
  hooksFile: string;
  configFile: string;
  /** The project, for a project install (its real path, as Codex names it); undefined for `--user`. */
  projectDir?: string;
  /** The user's Codex home. */
  home: string;
}

/** The files of a Codex install for a project (`projectDir`) or the user (`undefined`). */
export function codexFiles(
  projectDir: string | undefined,
  env: { env: Record<string, string | undefined>; homeDir: string },
): CodexFiles {
  const home = resolve(codexHome(env.env, env.homeDir));
  const configFile = join(home, "config.toml");
  if (projectDir === undefined) return { hooksFile: join(home, "hooks.json"), configFile, home };
  // Codex names a project layer by the directory it runs in, which the kernel gives resolved.
  const real = realOr(projectDir);
  return { hooksFile: join(real, ".codex", "hooks.json"), configFile, projectDir: real, home };
}

/** Our handlers in a `hooks.json` text. */
export function ourCodexHandlers(text: string | null, file: string, known: readonly string[] = []): CodexHandler[] {
  return codexHandlers(text, file).filter((h) => commandHook(h.command, known) !== null);
}

/** `rehydrate install --agent codex`; the caller took `--agent codex` out of `args`. */
export function installCodex(
  args: string[],
  io: CliIo,
  options: VerbEnv & { execPath?: string; moduleUrl?: string },
): number {
  const opts = readOptions(args, { flags: ["--user", "--dry-run"], values: ["--project", "--command"] });
  if (opts.error) return usageError(io, "install", opts.error);
  const user = opts.flags.has("--user");
  if (user && opts.values.has("--project")) return usageError(io, "install", "--project and --user exclude each other");
  const env = resolveEnv(options);
  const projectDir = user ? undefined : resolve(env.cwd, opts.values.get("--project") ?? ".");
  if (projectDir !== undefined && !isDir(projectDir)) {
    return failure(io, "install", `no directory ${projectDir}; pass --project DIR`);
  }
  const files = codexFiles(projectDir, env);
  const binary = resolveBinary({
    command: opts.values.get("--command"),
    execPath: options.execPath,
    moduleUrl: options.moduleUrl ?? import.meta.url,
    cwd: env.cwd,
  });
  if ("error" in binary) return failure(io, "install", binary.error);
  const prefix = quoteShellPath(binary.path, env.platform);
  const hooksRead = readSettings(files.hooksFile, { root: files.projectDir });
  if ("error" in hooksRead) return failure(io, "install", `${hooksRead.error}; not changed`);
  const configRead = readSettings(files.configFile);
  if ("error" in configRead) return failure(io, "install", `${configRead.error}; not changed`);
  const plan = planInstall(hooksRead.text, {
    prefix,
    hooks: CODEX_HOOKS,
    knownBinaries: [prefix],
    suffix: CODEX_SUFFIX,
  });
  if (!plan.ok) {
    const e = plan.error;
    return failure(
      io,
      "install",
      `${files.hooksFile}:${e.line}:${e.column}: ${e.message}; the file was left untouched, fix it and run again`,
    );
  }
  // The trust of our handlers where they now sit; what an earlier install trusted and no longer is ours goes.
  const now = ourCodexHandlers(plan.text, files.hooksFile, [prefix]);
  const before = ourCodexHandlers(hooksRead.text, files.hooksFile, [prefix]);
  const trusted = trustedHashes(configRead.text);
  const stale = before.filter((b) => !now.some((n) => n.key === b.key) && trusted.get(b.key) === b.hash).map((b) =>
    b.key
  );
  let config = configRead.text ?? "";
  if (stale.length > 0) {
    const removed = removeTrustedHashes(config, stale);
    if ("error" in removed) return failure(io, "install", `${files.configFile}: ${removed.error}; not changed`);
    config = removed.text;
  }
  const set = setTrustedHashes(
    config === "" && configRead.text === null ? null : config,
    now.map((h) => ({ key: h.key, hash: h.hash })),
  );
  if ("error" in set) {
    return failure(
      io,
      "install",
      `${files.configFile}: ${set.error}; not changed (trust the hooks in Codex's own review instead)`,
    );
  }
  const configChanged = set.text !== (configRead.text ?? "");
  io.out(`Command: ${prefix} <hook>${CODEX_SUFFIX}\n`);
  if (opts.flags.has("--dry-run")) {
    if (plan.changed) io.out(unifiedDiff(hooksRead.text ?? "", plan.text, files.hooksFile));
    if (configChanged) io.out(unifiedDiff(configRead.text ?? "", set.text, files.configFile));
    io.out(`Dry run: ${files.hooksFile} and ${files.configFile} not written\n`);
    return 0;
  }
  try {
    if (plan.changed) {
      const backup = writeSettings(files.hooksFile, plan.text, {
        root: files.projectDir,
        now: env.now,
        newMode: user ? 0o600 : 0o644,
        old: hooksRead,
      });
      io.out(`Installed in ${files.hooksFile}: ${planSummary(plan)}\n`);
      if (backup) io.out(`Backup: ${backup}\n`);
    } else {
      io.out(`Already installed in ${files.hooksFile}: ${plan.kept.join(", ")}\n`);
    }
  } catch (err) {
    return failure(io, "install", writeFailure(files.hooksFile, err));
  }
  try {
    if (configChanged) {
      const backup = writeSettings(files.configFile, set.text, { now: env.now, newMode: 0o600, old: configRead });
      io.out(`Trusted in ${files.configFile}: ${now.length} hooks (${now.map((h) => h.event).join(", ")})\n`);
      if (backup) io.out(`Backup: ${backup}\n`);
    } else {
      io.out(`Already trusted in ${files.configFile}\n`);
    }
  } catch (err) {
    return failure(io, "install", writeFailure(files.configFile, err));
  }
  if (files.projectDir !== undefined && !projectTrusted(set.text, files.projectDir)) {
    io.out(
      `Note: Codex loads ${
        join(files.projectDir, ".codex")
      } only in a trusted project: answer its question when you first run codex there, or run codex exec --trust once\n`,
    );
  }
  const other = codexFiles(user ? resolve(env.cwd) : undefined, env);
  if (other.hooksFile !== files.hooksFile) warnTwice(io, other.hooksFile, other.projectDir);
  io.out(
    "After each compaction the agent gets what the summary lacks: your latest request, the last test commands and how they ended, the open plan steps and files the summary left out (<session-context>)\n",
  );
  return 0;
}

/** `rehydrate uninstall --agent codex`; the caller took `--agent codex` out of `args`. */
export function uninstallCodex(args: string[], io: CliIo, options: VerbEnv): number {
  const opts = readOptions(args, { flags: ["--user", "--dry-run"], values: ["--project", "--command"] });
  if (opts.error) return usageError(io, "uninstall", opts.error);
  const user = opts.flags.has("--user");
  if (user && opts.values.has("--project")) {
    return usageError(io, "uninstall", "--project and --user exclude each other");
  }
  const env = resolveEnv(options);
  const projectDir = user ? undefined : resolve(env.cwd, opts.values.get("--project") ?? ".");
  if (projectDir !== undefined && !isDir(projectDir)) {
    return failure(io, "uninstall", `no directory ${projectDir}; pass --project DIR`);
  }
  const extra = opts.values.get("--command");
  const known = extra === undefined ? [] : [quoteShellPath(resolve(env.cwd, extra), env.platform), extra];
  const files = codexFiles(projectDir, env);
  const hooksRead = readSettings(files.hooksFile, { root: files.projectDir });
  if ("error" in hooksRead) return failure(io, "uninstall", `${hooksRead.error}; not changed`);
  if (hooksRead.text === null) {
    io.out(`Nothing to uninstall: no ${files.hooksFile}\n`);
    return 0;
  }
  const configRead = readSettings(files.configFile);
  if ("error" in configRead) return failure(io, "uninstall", `${configRead.error}; not changed`);
  const plan = planUninstall(hooksRead.text, { knownBinaries: known });
  if (!plan.ok) {
    const e = plan.error;
    return failure(
      io,
      "uninstall",
      `${files.hooksFile}:${e.line}:${e.column}: ${e.message}; the file was left untouched, fix it and run again`,
    );
  }
  if (!plan.changed) {
    io.out(`Nothing to uninstall: no rehydrate hooks in ${files.hooksFile}\n`);
    return 0;
  }
  const config = configRead.text === null
    ? null
    : untrust(configRead.text, hooksRead.text, plan.text, files.hooksFile, known);
  if (config !== null && "error" in config) {
    return failure(io, "uninstall", `${files.configFile}: ${config.error}; not changed`);
  }
  const empty = /^\uFEFF?\s*\{\s*\}\s*$/.test(plan.text);
  if (opts.flags.has("--dry-run")) {
    io.out(unifiedDiff(hooksRead.text, plan.text, files.hooksFile));
    if (config !== null && config.text !== configRead.text) {
      io.out(unifiedDiff(configRead.text ?? "", config.text, files.configFile));
    }
    io.out(
      `Dry run: not written (would remove ${plan.removed.join(", ")}${
        empty ? `; and delete ${files.hooksFile}` : ""
      })\n`,
    );
    return 0;
  }
  try {
    const holdsOnlyOurs = (text: string) => {
      const p = planUninstall(text, { knownBinaries: known });
      return p.ok && /^\uFEFF?\s*\{\s*\}\s*$/.test(p.text);
    };
    if (empty && deleteSettings(files.hooksFile, { root: files.projectDir, holdsOnlyOurs })) {
      io.out(
        `Uninstalled from ${files.hooksFile}: removed ${
          plan.removed.join(", ")
        }; the file held nothing else: deleted\n`,
      );
    } else {
      const backup = writeSettings(files.hooksFile, plan.text, {
        root: files.projectDir,
        now: env.now,
        newMode: 0o644,
        old: hooksRead,
      });
      io.out(`Uninstalled from ${files.hooksFile}: removed ${plan.removed.join(", ")}\n`);
      if (backup) io.out(`Backup: ${backup}\n`);
    }
  } catch (err) {
    return failure(io, "uninstall", writeFailure(files.hooksFile, err));
  }
  if (config !== null && config.text !== configRead.text) {
    try {
      const backup = writeSettings(files.configFile, config.text, {
        now: env.now,
        newMode: 0o600,
        old: configRead as SettingsText,
      });
      io.out(`Trust taken back in ${files.configFile}\n`);
      if (backup) io.out(`Backup: ${backup}\n`);
    } catch (err) {
      return failure(io, "uninstall", writeFailure(files.configFile, err));
    }
  }
  return 0;
}

/**
 * The config text without the trust of our handlers, and with the trust of the handlers after
 * ours carried to their new places (removing ours moves them up): a hook the user trusted stays
 * trusted. Only a trust that matches the handler's hash moves; one that does not was stale already.
 */
function untrust(config: string, before: string, after: string, file: string, known: readonly string[]) {
  const trusted = trustedHashes(config);
  const all = codexHandlers(before, file);
  const ours = new Set(ourCodexHandlers(before, file, known).map((h) => h.key));
  const rest = codexHandlers(after, file);
  const theirs = all.filter((h) => !ours.has(h.key));
  const moves: { from: string; to: string; hash: string }[] = [];
  // Removing our entries keeps the order of everyone else's, event by event.
  for (const event of new Set(theirs.map((h) => h.event))) {
    const old = theirs.filter((h) => h.event === event);
    const now = rest.filter((h) => h.event === event);
    old.forEach((h, i) => {
      const n = now[i];
      if (n !== undefined && n.key !== h.key && n.hash === h.hash && trusted.get(h.key) === h.hash) {
        moves.push({ from: h.key, to: n.key, hash: h.hash });
      }
    });
  }
  return removeTrustedHashes(config, [...ours].filter((k) => trusted.has(k)), moves);
}

/** The same hooks in the user's and the project's hooks.json run twice: say so. */
function warnTwice(io: CliIo, otherFile: string, root: string | undefined): void {
  const read = readSettings(otherFile, { root });
  if ("error" in read || read.text === null) return;
  if (ourCodexHandlers(read.text, otherFile).length > 0) {
    io.err(
      `rehydrate install: warning: ${otherFile} registers rehydrate too, so its hooks would run twice; run rehydrate uninstall --agent codex for one of them\n`,
    );
  }
}

function planSummary(plan: { added: string[]; updated: string[]; removed: string[]; kept: string[] }): string {
  const parts: string[] = [];
  if (plan.added.length) parts.push(`added ${plan.added.join(", ")}`);
  if (plan.updated.length) parts.push(`updated ${plan.updated.join(", ")}`);
  if (plan.removed.length) parts.push(`removed ${plan.removed.join(", ")}`);
  return parts.join("; ") || "no change";
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
