import { readdirSync } from "../node/fs.ts";
import { stateDir } from "../state/state_dir.ts";
import { relative, resolve } from "../node/path.ts";
import type { CliIo } from "./main.ts";
import { quoteShellPath } from "./_install_command.ts";
import {
  isDir,
  projectConfig,
  readOptions,
  type ResolvedEnv,
  resolveEnv,
  settingsPath,
  type SettingsScopeName,
  takeAgent,
  type VerbEnv,
} from "./_install_detect.ts";
import { uninstallCodex } from "./_codex_hooks.ts";
import { unifiedDiff } from "./_install_diff.ts";
import { planUninstall } from "./_install_plan.ts";
import { deleteSettings, readSettings, writeFailure, writeSettings } from "./_install_settings_file.ts";
import { asksHelp, failure, usageError } from "./_usage.ts";
import { removeSlashCommand, SLASH_COMMAND, slashCommandPath } from "./_slash_command.ts";
import { projectRoot, rootLine } from "./_project_root.ts";

const HELP = `Usage: rehydrate uninstall [--project DIR] [--local | --shared | --user]
         [--dry-run] [--command PATH]
       rehydrate uninstall --agent codex [--project DIR | --user] [--dry-run]

Removes rehydrate's hook entries from the project's settings files, the local
<DIR>/.claude/settings.local.json and the shared <DIR>/.claude/settings.json
(default DIR: the nearest folder upward with a .claude/ folder or .git, else
the current directory; --local or --shared for one of them), or
with --user from ~/.claude/settings.json: exactly the entries install added (a
command running a rehydrate binary with one hook name, guarded or not), plus the
matcher groups, event arrays and "hooks" object they leave empty. Everything else
stays byte for byte; <file>.bak-<time> is written first (the newest 3 are kept).
A file left holding only {} is deleted, with its backups that held nothing but
our hooks, and the .claude folder when nothing else is in it. The /rehydrate-last
command file install --slash-command wrote goes too. The private state
directory (snapshots, records, the debug log, shared by all your projects)
stays; uninstall says where it is.

With --agent codex: our entries in <DIR>/.codex/hooks.json (or with --user in
$CODEX_HOME/hooks.json), and their trusted_hash in $CODEX_HOME/config.toml; the
trust of the hooks after ours moves with them, so a hook you trusted stays so.

Options:
  --project DIR    the project to uninstall from (default: see above)
  --local          only the project's .claude/settings.local.json
  --shared         only the project's .claude/settings.json
  --user           uninstall from ~/.claude/settings.json instead
  --dry-run        print the diff and write nothing
  --command PATH   also treat commands running PATH as ours (a binary whose file
                   name does not contain "rehydrate")
  --agent NAME     claude (the default) or codex
  -h, --help       show this help
  -v, --version    print the version

Examples:
  rehydrate uninstall
  rehydrate uninstall --shared --dry-run
  rehydrate uninstall --user
`;

/**
 * `rehydrate uninstall`: removes exactly the entries `rehydrate install` added to Claude Code
 * settings files (both of the project's by default), deleting a file it leaves empty. Returns 0
 * on success (also when nothing was installed), 1 when a file cannot be read, parsed or written
 * (it is then left untouched; the others are still done), 2 on a usage error.
 *
 * @example
 * ```ts
 * const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) };
 * const code = cliUninstall(["--user", "--dry-run"], io);
 * ```
 */
export function cliUninstall(args: string[], io: CliIo, options: VerbEnv = {}): number {
  if (asksHelp(args)) {
    io.out(HELP);
    return 0;
  }
  const agent = takeAgent(args);
  if ("error" in agent) return usageError(io, "uninstall", agent.error);
  if (agent.agent === "codex") return uninstallCodex(agent.rest, io, options);
  args = agent.rest;
  const opts = readOptions(args, {
    flags: ["--user", "--shared", "--local", "--dry-run"],
    values: ["--project", "--command"],
  });
  if (opts.error) return usageError(io, "uninstall", opts.error);
  const chosen = (["--user", "--shared", "--local"] as const).filter((f) => opts.flags.has(f));
  if (chosen.length > 1) return usageError(io, "uninstall", `${chosen.join(" and ")} exclude each other`);
  const user = opts.flags.has("--user");
  if (user && opts.values.has("--project")) {
    return usageError(io, "uninstall", "--project and --user exclude each other");
  }
  const scopes: SettingsScopeName[] = user
    ? ["user"]
    : opts.flags.has("--shared")
    ? ["shared"]
    : opts.flags.has("--local")
    ? ["local"]
    : ["local", "shared"];
  const env = resolveEnv(options);
  const found = projectRoot(env, opts.values.get("--project"));
  const projectDir = found.dir;
  if (!user && !isDir(projectDir)) return failure(io, "uninstall", `no directory ${projectDir}; pass --project DIR`);
  const foundLine = user ? null : rootLine(found, env.cwd);
  if (foundLine) io.out(`${foundLine}\n`);
  const extra = opts.values.get("--command");
  const known = extra === undefined ? [] : [quoteShellPath(resolve(env.cwd, extra), env.platform), extra];
  // The /rehydrate-last command install --slash-command wrote, first: the settings file's removal
  // may then leave the .claude folder empty and remove it too.
  const slash = slashCommandPath({ user, projectDir, homeDir: env.homeDir });
  if (removeSlashCommand(slash, { root: user ? undefined : projectDir, dryRun: opts.flags.has("--dry-run") })) {
    io.out(`${opts.flags.has("--dry-run") ? "Dry run: would remove" : "Removed"} ${slash} (/${SLASH_COMMAND})\n`);
  }
  let code = 0;
  const missing: string[] = [];
  // Both project files sit in .claude: a problem with the folder is said once.
  const said = new Set<string>();
  for (const scope of scopes) {
    const file = settingsPath(scope, { projectDir, homeDir: env.homeDir });
    const r = uninstallFrom(io, file, {
      root: user ? undefined : projectDir,
      known,
      dryRun: opts.flags.has("--dry-run"),
      now: env.now,
      label: (user ? relative(env.homeDir, file) : relative(projectDir, file)).split("\\").join("/"),
      said,
    });
    if (r === "missing") missing.push(file);
    else if (r === "failed") code = 1;
  }
  if (missing.length === scopes.length) io.out(`Nothing to uninstall: no ${missing.join(" or ")}\n`);
  if (!opts.flags.has("--dry-run")) noteStateDir(io, projectDir, env);
  return code;
}

function uninstallFrom(
  io: CliIo,
  file: string,
  o: { root: string | undefined; known: string[]; dryRun: boolean; now: Date; label: string; said: Set<string> },
): "done" | "missing" | "failed" {
  const read = readSettings(file, { root: o.root });
  if ("error" in read) {
    if (!o.said.has(read.error)) failure(io, "uninstall", `${read.error}; not changed`);
    o.said.add(read.error);
    return "failed";
  }
  if (read.text === null) return "missing";
  const plan = planUninstall(read.text, { knownBinaries: o.known });
  if (!plan.ok) {
    const e = plan.error;
    failure(
      io,
      "uninstall",
      `${file}:${e.line}:${e.column}: ${e.message}; the file was left untouched, fix it and run again`,
    );
    return "failed";
  }
  if (!plan.changed) {
    io.out(`Nothing to uninstall: no rehydrate hooks in ${file}\n`);
    return "done";
  }
  const empty = isEmptyObject(plan.text);
  if (o.dryRun) {
    io.out(unifiedDiff(read.text, plan.text, o.label));
    io.out(
      `Dry run: ${file} not written (would remove ${plan.removed.join(", ")}${empty ? "; and delete the file" : ""})\n`,
    );
    return "done";
  }
  try {
    const holdsOnlyOurs = (text: string) => {
      const p = planUninstall(text, { knownBinaries: o.known });
      return p.ok && isEmptyObject(p.text);
    };
    if (empty && deleteSettings(file, { root: o.root, holdsOnlyOurs })) {
      io.out(`Uninstalled from ${file}: removed ${plan.removed.join(", ")}; the file held nothing else: deleted\n`);
      return "done";
    }
    const backup = writeSettings(file, plan.text, { root: o.root, now: o.now, newMode: 0o644, old: read });
    io.out(`Uninstalled from ${file}: removed ${plan.removed.join(", ")}\n`);
    if (backup) io.out(`Backup: ${backup}\n`);
  } catch (err) {
    failure(io, "uninstall", writeFailure(file, err));
    return "failed";
  }
  return "done";
}

/**
 * Uninstall removes hook entries only: the private state directory stays, for every other project
 * that uses rehydrate. Say where it is and how to remove it, once it holds anything.
 */
function noteStateDir(io: CliIo, projectDir: string, env: ResolvedEnv): void {
  const dir = stateDir({
    env: env.env,
    homeDir: env.homeDir,
    platform: env.platform,
    configured: projectConfig(projectDir, env).config.stateDir,
  });
  let entries: number;
  try {
    entries = readdirSync(dir).length;
  } catch {
    return;
  }
  if (entries === 0) return;
  io.out(
    `State: ${dir} stays (session snapshots, compaction and restore records, the debug log of every project of yours); to remove it too: rm -rf ${
      quoteShellPath(dir, env.platform)
    }\n`,
  );
}

/** `{}` with any whitespace: a settings file that says nothing (Claude Code reads a missing one the same). */
function isEmptyObject(text: string): boolean {
  return /^\uFEFF?\s*\{\s*\}\s*$/.test(text);
}
