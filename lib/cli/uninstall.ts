import { resolve } from "../node/path.ts";
import type { CliIo } from "./main.ts";
import { quoteShellPath } from "./_install_command.ts";
import { readOptions, resolveEnv, settingsPath, type VerbEnv } from "./_install_detect.ts";
import { unifiedDiff } from "./_install_diff.ts";
import { planUninstall } from "./_install_plan.ts";
import { readSettings, writeFailure, writeSettings } from "./_install_settings_file.ts";

const HELP = `Usage: rehydrate uninstall [--project DIR | --user] [--dry-run] [--command PATH]

Removes rehydrate's hook entries from <DIR>/.claude/settings.json (default DIR:
the current directory) or, with --user, ~/.claude/settings.json: exactly the
entries install added (a command running a rehydrate binary with one hook name),
plus the matcher groups, event arrays and "hooks" object they leave empty.
Everything else stays byte for byte; a backup settings.json.bak-<time> is
written first.

Options:
  --project DIR    the project to uninstall from (default: the current directory)
  --user           uninstall from ~/.claude/settings.json instead
  --dry-run        print the diff and write nothing
  --command PATH   also treat commands running PATH as ours (a binary whose file
                   name does not contain "rehydrate")
  -h, --help       show this help

Examples:
  rehydrate uninstall
  rehydrate uninstall --user --dry-run
`;

/**
 * `rehydrate uninstall`: removes exactly the entries `rehydrate install` added to a Claude Code
 * settings file. Returns 0 on success (also when nothing was installed), 1 when the file cannot be
 * read, parsed or written (it is then left untouched), 2 on a usage error.
 *
 * @example
 * ```ts
 * const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) };
 * const code = cliUninstall(["--user", "--dry-run"], io);
 * ```
 */
export function cliUninstall(args: string[], io: CliIo, options: VerbEnv = {}): number {
  if (args.includes("-h") || args.includes("--help")) {
    io.out(HELP);
    return 0;
  }
  const opts = readOptions(args, { flags: ["--user", "--dry-run"], values: ["--project", "--command"] });
  if (opts.error) return usage(io, opts.error);
  const user = opts.flags.has("--user");
  if (user && opts.values.has("--project")) return usage(io, "--project and --user exclude each other");
  const env = resolveEnv(options);
  const projectDir = resolve(env.cwd, opts.values.get("--project") ?? ".");
  const file = settingsPath({ user, projectDir }, env.homeDir);
  const scope = { root: user ? undefined : projectDir };
  const read = readSettings(file, scope);
  if ("error" in read) {
    io.err(`rehydrate uninstall: ${read.error}; not changed\n`);
    return 1;
  }
  if (read.text === null) {
    io.out(`Nothing to uninstall: ${file} does not exist\n`);
    return 0;
  }
  const extra = opts.values.get("--command");
  const known = extra === undefined ? [] : [quoteShellPath(resolve(env.cwd, extra), env.platform), extra];
  const plan = planUninstall(read.text, { knownBinaries: known });
  if (!plan.ok) {
    const e = plan.error;
    io.err(
      `rehydrate uninstall: ${file}:${e.line}:${e.column}: ${e.message}; the file was left untouched, fix it and run again\n`,
    );
    return 1;
  }
  if (!plan.changed) {
    io.out(`Nothing to uninstall: no rehydrate hooks in ${file}\n`);
    return 0;
  }
  if (opts.flags.has("--dry-run")) {
    io.out(unifiedDiff(read.text, plan.text, "settings.json"));
    io.out(`Dry run: ${file} not written (would remove ${plan.removed.join(", ")})\n`);
    return 0;
  }
  try {
    const backup = writeSettings(file, plan.text, { ...scope, now: env.now, newMode: 0o644, old: read });
    io.out(`Uninstalled from ${file}: removed ${plan.removed.join(", ")}\n`);
    if (backup) io.out(`Backup: ${backup}\n`);
  } catch (err) {
    io.err(`rehydrate uninstall: ${writeFailure(file, err)}\n`);
    return 1;
  }
  return 0;
}

function usage(io: CliIo, message: string): number {
  io.err(`rehydrate uninstall: ${message}; run rehydrate uninstall --help\n`);
  return 2;
}
