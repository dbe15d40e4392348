import { existsSync, mkdirSync, writeFileSync } from "../node/fs.ts";
import { atLeast, lastClientVersion, POST_MODEL_SWITCH_SINCE } from "./_client_version.ts";
import { join, relative, resolve } from "../node/path.ts";
import type { CliIo } from "./main.ts";
import { commandPrefix, quoteShellPath, resolveBinary } from "./_install_command.ts";
import {
  detectWorkflows,
  isDir,
  parseWorkflows,
  projectConfig,
  readOptions,
  resolveEnv,
  settingsPath,
  type SettingsScopeName,
  takeAgent,
  type VerbEnv,
  type WorkflowFinding,
} from "./_install_detect.ts";
import { installCodex } from "./_codex_hooks.ts";
import { unifiedDiff } from "./_install_diff.ts";
import {
  hookCommand,
  hooksFor,
  type HookSpec,
  listOurEntries,
  type OurEntry,
  planInstall,
  planUninstall,
  type Workflow,
  WORKFLOWS,
  workflowsOf,
} from "./_install_plan.ts";
import { KEEP_BACKUPS, readSettings, writeFailure, writeSettings } from "./_install_settings_file.ts";
import { commandBinary } from "./_doctor_files.ts";
import { configNeeds, wantedHooks } from "./_config_hooks.ts";
import {
  installSlashCommand,
  SLASH_COMMAND,
  slashCommandLine,
  type SlashCommandOutcome,
  slashCommandPath,
} from "./_slash_command.ts";
import type { LoadedConfig } from "../config/load_config.ts";
import { asksHelp, failure, usageError } from "./_usage.ts";
import { projectRoot, rootLine } from "./_project_root.ts";

/** The schema URL written as `$schema` by `--write-config` (the `$id` of `schemas/config.v1.json`). */
export const CONFIG_SCHEMA_URL = "https://rehydrate.dev/schemas/config.v1.json";

/** Options for {@linkcode cliInstall}: where things are. Every field has a real-world default. */
export interface CliInstallOptions extends VerbEnv {
  /** The running executable. Default `process.execPath`. */
  execPath?: string;
  /** URL of the running module, which tells a compiled binary from a source run. Default `import.meta.url`. */
  moduleUrl?: string;
}

const HELP = `Usage: rehydrate install [--project DIR] [--local | --shared | --user]
         [--workflows LIST] [--dry-run] [--write-config] [--slash-command]
         [--command PATH]
       rehydrate install --agent codex [--project DIR | --user] [--dry-run]
         [--command PATH]

Registers rehydrate's hooks in one of Claude Code's settings files:
  (default)  <DIR>/.claude/settings.local.json: this machine only; commands
             name this binary by its path. Not for git: install says when no
             .gitignore covers it
  --shared   <DIR>/.claude/settings.json, the file teams commit: each command
             runs the binary inside the project ("$CLAUDE_PROJECT_DIR"/...)
             when it lies there (a project-local npm install's through
             node_modules/.bin/rehydrate), else rehydrate on PATH, and exits
             0 silently on a machine without it, so a teammate without
             rehydrate sees nothing
  --user     ~/.claude/settings.json: every project of yours
(default DIR: the nearest folder upward with a .claude/ folder or .git, else
the current directory). Existing hooks, other keys, key order
and formatting are kept; running it again changes nothing; an upgrade (another
binary path) updates our entries in place. Before a change the old file is
copied to <file>.bak-<time> beside it; the newest 3 copies are kept.

Which hooks depends on the workflows (detected in the project, plus those of an
earlier install, unless --workflows names them) and on the config:
  always          PreCompact, SessionStart, UserPromptSubmit, Stop (the session's
                  checkpoint, in the background), and PostModelSwitch once
                  Claude Code 2.1.332 or later has run (not in --shared)
  orchestration   + PostCompact, PostToolUse (Write|Edit|MultiEdit)
  dispatch        + PreToolUse (*), PostToolUse (Skill), Stop
  reread.enforce  true in the config: + PreToolUse (*), Stop, in any repository
A workflow the config turns on ("enabled": true) is always installed.
--workflows replaces the detected list: to drop one, name the others
(--workflows none keeps the everyday hooks only).

With --agent codex, for the OpenAI Codex CLI: PreCompact, SessionStart
(compact|resume|fork) and UserPromptSubmit, each "<binary> <hook> --agent codex",
in <DIR>/.codex/hooks.json (Codex loads it in a trusted project), or with --user
in $CODEX_HOME/hooks.json (~/.codex/hooks.json); and a trusted_hash for each in
$CODEX_HOME/config.toml, the trust Codex's own hook review would record, so the
hooks run without a review. Both files keep everything else; each is copied to
<file>.bak-<time> first.

Options:
  --project DIR       the project to install into (default: see above)
  --local             write .claude/settings.local.json (the default)
  --shared            write the shared .claude/settings.json (see above)
  --user              install into ~/.claude/settings.json instead
  --workflows LIST    comma-separated: projects,orchestration,dispatch (or none)
  --dry-run           print the diff of the settings file and write nothing
  --write-config      also write a default .claude/rehydrate.json (never overwrites)
  --slash-command     also write .claude/commands/rehydrate-last.md (with --user:
                      ~/.claude/commands/): /rehydrate-last in Claude Code prints
                      what the model got after the last compaction
  --command PATH      the rehydrate binary the hooks run (default: this binary;
                      required when running from source with bun or deno)
  --agent NAME        claude (the default: Claude Code) or codex (see above)
  -h, --help          show this help
  -v, --version       print the version

Examples:
  rehydrate install
  rehydrate install --shared
  rehydrate install --slash-command
  rehydrate install --dry-run --workflows projects,dispatch
  rehydrate install --user --command ~/.local/bin/rehydrate
  npx bun hooks/rehydrate.ts install --command dist/rehydrate --write-config
  rehydrate install --agent codex --user
`;

/**
 * `rehydrate install`: registers the hooks the project's workflows need in a Claude Code
 * settings file (the project's local one by default, its shared one with `--shared`, the user's
 * with `--user`), merging into what is there (see `--help`). Returns the exit code: 0 on success
 * (also when already installed), 1 when the project or the settings file cannot be used (invalid
 * JSON is left untouched) or no binary can be named, 2 on a usage error.
 *
 * @example
 * ```ts
 * const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) };
 * const code = cliInstall(["--project", "/work/repo", "--dry-run"], io);
 * ```
 */
export function cliInstall(args: string[], io: CliIo, options: CliInstallOptions = {}): number {
  if (asksHelp(args)) {
    io.out(HELP);
    return 0;
  }
  const agent = takeAgent(args);
  if ("error" in agent) return usageError(io, "install", agent.error);
  if (agent.agent === "codex") return installCodex(agent.rest, io, options);
  args = agent.rest;
  const opts = readOptions(args, {
    flags: ["--user", "--shared", "--local", "--dry-run", "--write-config", "--slash-command"],
    values: ["--project", "--workflows", "--command"],
  });
  if (opts.error) return usageError(io, "install", opts.error);
  const scopes = (["--user", "--shared", "--local"] as const).filter((f) => opts.flags.has(f));
  if (scopes.length > 1) return usageError(io, "install", `${scopes.join(" and ")} exclude each other`);
  const scope: SettingsScopeName = opts.flags.has("--user") ? "user" : opts.flags.has("--shared") ? "shared" : "local";
  const user = scope === "user";
  if (user && opts.values.has("--project")) return usageError(io, "install", "--project and --user exclude each other");
  let workflowList: Workflow[] | undefined;
  const list = opts.values.get("--workflows");
  if (list !== undefined) {
    const parsed = parseWorkflows(list);
    if ("unknown" in parsed) {
      return usageError(
        io,
        "install",
        `unknown workflow ${JSON.stringify(parsed.unknown)}; one of projects, orchestration, dispatch, none`,
      );
    }
    workflowList = parsed.workflows;
  }
  const env = resolveEnv(options);
  const found = projectRoot(env, opts.values.get("--project"));
  const projectDir = found.dir;
  if (!isDir(projectDir)) return failure(io, "install", `no directory ${projectDir}; pass --project DIR`);
  const dirs = { projectDir, homeDir: env.homeDir };
  const file = settingsPath(scope, dirs);
  const root = user ? undefined : projectDir;
  const read = readSettings(file, { root });
  if ("error" in read) return failure(io, "install", `${read.error}; not changed`);

  const foundLine = user ? null : rootLine(found, env.cwd);
  if (foundLine) io.out(`${foundLine}\n`);
  const dryRun = opts.flags.has("--dry-run");
  const loaded = projectConfig(projectDir, env);
  let workflows: Workflow[];
  if (workflowList !== undefined) {
    workflows = workflowList;
    io.out(`Workflows: ${workflows.join(", ") || "none (the everyday hooks only)"} (from --workflows)\n`);
  } else {
    const findings = detectWorkflows(projectDir, loaded);
    const before = workflowsOf(previousEntries(scope, dirs, read.text));
    workflows = WORKFLOWS.filter((w) => before.includes(w) || findings.some((f) => f.used && f.workflow === w));
    printFindings(io, findings, before);
  }
  // PostModelSwitch only for a client known to have it: 2.1.197 warns about an unknown event at
  // every interactive start (lib/cli/_client_version.ts). Never in the shared file: this user's
  // client says nothing of the teammates'.
  const client = lastClientVersion(env.env, env.homeDir);
  const modelSwitch = scope !== "shared" && atLeast(client, POST_MODEL_SWITCH_SINCE);
  // Every hook a config value asks for is registered with the workflows' (lib/cli/_config_hooks.ts).
  const specs = wantedHooks(workflows, loaded.config, { modelSwitch });
  printHooks(io, specs, hooksFor(workflows, { modelSwitch }), loaded);
  if (scope !== "shared" && !modelSwitch) {
    io.out(
      `PostModelSwitch: not registered: ${
        client === null ? "Claude Code has not run for this user yet" : `Claude Code ${client} does not send it`
      } (${POST_MODEL_SWITCH_SINCE} or later does); run rehydrate install again after it has, so that the fill warning follows /model\n`,
    );
  }

  const binary = resolveBinary({
    command: opts.values.get("--command"),
    execPath: options.execPath,
    moduleUrl: options.moduleUrl ?? import.meta.url,
    cwd: env.cwd,
  });
  if ("error" in binary) return failure(io, "install", binary.error);
  const prefix = user
    ? quoteShellPath(binary.path, env.platform)
    : scope === "shared"
    ? sharedPrefix(binary.path, { projectDir, platform: env.platform })
    : commandPrefix(binary.path, { projectDir, platform: env.platform });
  const shared = scope === "shared";
  // npx's cache goes with `npm cache npx rm --force` or `rm -rf ~/.npm`: behind the guard, a hook
  // whose binary went with it exits 0 silently instead of failing (exit 127) on every prompt and
  // tool call. The warning below says how to get hooks that last.
  const npx = !shared && inNpxCache(binary.path);
  const guarded = shared || npx;
  const plan = planInstall(read.text, { prefix, hooks: specs, knownBinaries: [prefix], guarded });
  if (!plan.ok) {
    const e = plan.error;
    return failure(
      io,
      "install",
      `${file}:${e.line}:${e.column}: ${e.message}; the file was left untouched, fix it and run again`,
    );
  }
  io.out(`Command: ${hookCommand(prefix, "<hook>", { guarded })}\n`);
  if (!plan.changed) {
    io.out(`Already installed in ${file}: ${plan.kept.join(", ")}\n`);
  } else if (dryRun) {
    io.out(unifiedDiff(read.text ?? "", plan.text, relativeName(file, projectDir, env.homeDir, user)));
    io.out(`Dry run: ${file} not written (${summary(plan)})\n`);
  } else {
    try {
      const backup = writeSettings(file, plan.text, {
        root,
        now: env.now,
        newMode: user ? 0o600 : 0o644,
        old: read,
      });
      io.out(`Installed in ${file}: ${summary(plan)}\n`);
      if (backup) io.out(`Backup: ${backup} (the newest ${KEEP_BACKUPS} are kept)\n`);
    } catch (err) {
      return failure(io, "install", writeFailure(file, err));
    }
  }
  if (!dryRun) io.out(whatTheAgentGets(workflows, loaded.config.session.enabled !== false));
  if (scope === "local" && !dryRun && read.text === null && plan.changed) noteGitignore(io, projectDir);
  if (shared) warnNotOnPath(io, prefix, projectDir, env);
  if (npx) {
    io.err(
      `rehydrate install: warning: ${binary.path} is in npx's cache, which npm cache npx rm --force (or removing ~/.npm) deletes: these hooks then do nothing; for hooks that last, npm install -g rehydrate (or install.sh) and run rehydrate install again\n`,
    );
  }
  for (const other of ["local", "shared", "user"] as const) {
    if (other !== scope) warnTwice(io, other, settingsPath(other, dirs), file, projectDir);
  }
  const slash = slashCommandPath({ user, projectDir, homeDir: env.homeDir });
  if (opts.flags.has("--slash-command")) {
    const line = slashCommandLine(prefix);
    let outcome: SlashCommandOutcome;
    try {
      outcome = installSlashCommand(slash, line, { root, dryRun });
    } catch (err) {
      return failure(io, "install", `${(err as Error).message}; /${SLASH_COMMAND} not written`);
    }
    io.out(
      outcome === "not-ours"
        ? `Slash command: ${slash} exists and is not rehydrate's: left as it is\n`
        : outcome === "kept"
        ? `Slash command: /${SLASH_COMMAND} already in ${slash}\n`
        : outcome === "would-write"
        ? `Dry run: would write ${slash} (/${SLASH_COMMAND}, which runs ${line})\n`
        : `Slash command: /${SLASH_COMMAND} in ${slash}: type it in Claude Code to see what the model got after the last compaction (it runs ${line})\n`,
    );
    if (scope === "local" && (outcome === "written" || outcome === "updated")) {
      io.out(
        `Note: ${slash} names this machine's binary; keep it out of git, or use --shared for a file the team can commit\n`,
      );
    }
  } else if (!dryRun && !existsSync(slash)) {
    io.out(
      `Tip: rehydrate install --slash-command adds /${SLASH_COMMAND}, which shows in Claude Code what the model got after the last compaction\n`,
    );
  }
  if (opts.flags.has("--write-config")) {
    const code = writeConfig(io, user ? env.homeDir : projectDir, workflows, dryRun);
    if (code !== 0) return code;
  }
  return 0;
}

/**
 * The command prefix of a shared install: the binary relative to `"$CLAUDE_PROJECT_DIR"` when it
 * lies inside the project (a checked-in or built binary), else its name (`rehydrate`, without
 * `.exe`) looked up on PATH: never an absolute path of this machine. A binary of the project's
 * `node_modules` (a project-local npm install) is this platform's package, which teammates on
 * another platform do not have, at a path whatever file each teammate has there would run from:
 * the command names npm's `node_modules/.bin/rehydrate` when the project has it, which each
 * machine's npm links to its own binary, else `rehydrate` on PATH (issue #36, I3).
 */
function sharedPrefix(binary: string, options: { projectDir: string; platform: string }): string {
  const inside = commandPrefix(binary, options);
  if (inside.startsWith('"$CLAUDE_PROJECT_DIR')) {
    if (!inside.includes("/node_modules/")) return inside;
    const bin = join(options.projectDir, "node_modules", ".bin", "rehydrate");
    return existsSync(bin) ? '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/rehydrate' : "rehydrate";
  }
  const name = binary.slice(Math.max(binary.lastIndexOf("/"), binary.lastIndexOf("\\")) + 1).replace(/\.exe$/i, "");
  return quoteShellPath(name, options.platform);
}

/** True for a binary that `npx rehydrate` ran from npm's npx cache (`~/.npm/_npx/<hash>/...`). */
function inNpxCache(binary: string): boolean {
  return binary.split(/[/\\]/).includes("_npx");
}

/**
 * Claude Code adds `.claude/settings.local.json` to `.gitignore` when it creates the file itself;
 * created here, in a git checkout whose ignore files do not name it, it could be committed with
 * this machine's paths: say so once, when the file is new.
 */
function noteGitignore(io: CliIo, projectDir: string): void {
  if (!existsSync(join(projectDir, ".git"))) return;
  for (const ignore of [join(projectDir, ".gitignore"), join(projectDir, ".claude", ".gitignore")]) {
    const read = readSettings(ignore, { root: projectDir, maxBytes: 256 * 1024 });
    if (!("error" in read) && read.text !== null && read.text.includes("settings.local.json")) return;
  }
  io.out(
    "Note: .claude/settings.local.json names this machine's binary; keep it out of git (add it to .gitignore), or run rehydrate install --shared for a file the team can commit\n",
  );
}

/** Our entries in the files of this scope before the install: both project files, or the user's. */
function previousEntries(
  scope: SettingsScopeName,
  dirs: { projectDir: string; homeDir: string },
  text: string | null,
): OurEntry[] {
  const texts = [text];
  if (scope !== "user") {
    const other = settingsPath(scope === "local" ? "shared" : "local", dirs);
    const read = readSettings(other, { root: dirs.projectDir });
    if (!("error" in read)) texts.push(read.text);
  }
  return texts.flatMap((t) => {
    const listed = listOurEntries(t);
    return "error" in listed ? [] : listed.entries;
  });
}

/** A shared install that names the binary on PATH does nothing on this machine when it is not there: say so. */
function warnNotOnPath(
  io: CliIo,
  prefix: string,
  projectDir: string,
  env: { homeDir: string; env: Record<string, string | undefined> },
): void {
  if (prefix.startsWith('"$CLAUDE_PROJECT_DIR')) return;
  const found = commandBinary(prefix, projectDir, env.homeDir, env.env);
  if (found.includes("/") || found.includes("\\")) return;
  io.err(
    `rehydrate install: warning: ${found} is not on PATH here, so these hooks do nothing on this machine; put the binary on PATH as ${found}\n`,
  );
}

function printFindings(io: CliIo, findings: WorkflowFinding[], before: Workflow[]): void {
  const used = findings.filter((f) => f.used);
  const kept = before.filter((w) => !used.some((f) => f.workflow === w));
  const parts = [
    ...used.map((f) => `${f.workflow} (${f.evidence})`),
    ...kept.map((w) => `${w} (installed before; --workflows replaces the list)`),
  ];
  if (parts.length === 0) {
    io.out("No workflow detected: the everyday layer's hooks only; pass --workflows to choose\n");
  } else {
    io.out(`Workflows: ${parts.join(", ")}\n`);
  }
}

/**
 * The hooks install registers, each once, in one line (the banner used to name three and install
 * four), then those only a config value asks for, with the key and the file that set it.
 */
function printHooks(io: CliIo, specs: readonly HookSpec[], base: readonly HookSpec[], loaded: LoadedConfig): void {
  const name = (s: HookSpec) =>
    s.async ? `${s.event} (${s.hook}, in the background)` : s.hook === "stop" ? `${s.event} (re-read)` : s.event;
  const fromWorkflows = specs.filter((s) => base.some((b) => b.hook === s.hook));
  const fromConfig = specs.filter((s) => !base.some((b) => b.hook === s.hook));
  io.out(`Hooks: ${fromWorkflows.map(name).join(", ")}\n`);
  if (fromConfig.length === 0) return;
  const why = configNeeds(loaded.config)
    .filter((n) => fromConfig.some((s) => n.hooks.includes(s.hook)))
    .map((n) => `${n.key}: ${JSON.stringify(n.value)} in ${loaded.origins[n.key] ?? "the config"}`);
  io.out(`Hooks the config asks for: ${fromConfig.map(name).join(", ")} (${why.join("; ")})\n`);
}

/** What each workflow adds after a compaction, on top of the everyday element. */
const WORKFLOW_CONTEXT: Readonly<Record<Workflow, string>> = {
  projects: "the active project's context (<nexus-context>)",
  orchestration: "the orchestration run's compaction alert",
  dispatch: "the worker's dispatch pointer",
};

/**
 * One line on what the registered hooks give the agent, so the install says what it bought; with
 * `session.enabled: false` it promises only the workflows' context.
 */
function whatTheAgentGets(workflows: Workflow[], sessionLayer: boolean): string {
  const extra = workflows.map((w) => WORKFLOW_CONTEXT[w]);
  if (!sessionLayer) {
    return `After each compaction the agent gets ${
      extra.length ? extra.join(", ") : "nothing from rehydrate"
    } (the everyday layer is off: session.enabled is false); workflows: ${
      workflows.join(", ") || "none"
    }; rehydrate status shows it\n`;
  }
  return `After each compaction the agent gets what the summary lacks: your latest request, the last test commands and how they ended, then the open tasks and files the summary left out (<session-context>)${
    extra.length ? `, plus ${extra.join(", ")}` : ""
  }; workflows: ${workflows.join(", ") || "none (the everyday layer only)"}; rehydrate status shows it\n`;
}

function summary(plan: { added: string[]; updated: string[]; removed: string[]; kept: string[] }): string {
  const parts: string[] = [];
  if (plan.added.length) parts.push(`added ${plan.added.join(", ")}`);
  if (plan.updated.length) parts.push(`updated ${plan.updated.join(", ")}`);
  if (plan.removed.length) parts.push(`removed ${plan.removed.join(", ")}`);
  if (plan.kept.length && parts.length) parts.push(`kept ${plan.kept.length}`);
  return parts.join("; ") || "no change";
}

/** Another settings file that registers us too runs every hook twice: say so, and how to keep one. */
function warnTwice(io: CliIo, other: SettingsScopeName, otherFile: string, file: string, projectDir: string): void {
  if (resolve(otherFile) === resolve(file)) return;
  const read = readSettings(otherFile, { root: other === "user" ? undefined : projectDir });
  if ("error" in read || read.text === null) return;
  const plan = planUninstall(read.text);
  if (plan.ok && plan.removed.length > 0) {
    io.err(
      `rehydrate install: warning: ${otherFile} registers rehydrate too, so its hooks would run twice; run rehydrate uninstall --${other} to keep one\n`,
    );
  }
}

function relativeName(file: string, projectDir: string, home: string, user: boolean): string {
  return (user ? relative(home, file) : relative(projectDir, file)).split("\\").join("/");
}

function writeConfig(io: CliIo, baseDir: string, workflows: Workflow[], dryRun: boolean): number {
  const file = join(baseDir, ".claude", "rehydrate.json");
  const config: Record<string, unknown> = { $schema: CONFIG_SCHEMA_URL, budget: { maxChars: 9500 } };
  if (workflows.includes("projects")) {
    config.projects = { enabled: "auto", root: "02-projects", systemDir: "00-system", minConfidence: "medium" };
  }
  if (workflows.includes("orchestration")) {
    config.orchestration = {
      enabled: "auto",
      projectsDir: "projects",
      thresholds: { warning: 0.6, critical: 0.8, compaction: 0.9 },
    };
  }
  if (workflows.includes("dispatch")) {
    config.dispatch = { enabled: "auto", dispatchDir: "docs/handler-dispatches", handlerSkill: "handler" };
  }
  config.reread = { enforce: "auto" };
  const text = JSON.stringify(config, null, 2) + "\n";
  if (existsSync(file)) {
    io.out(`Config: ${file} exists, left as it is\n`);
    return 0;
  }
  if (dryRun) {
    io.out(`Dry run: would write ${file}:\n${text}`);
    return 0;
  }
  try {
    mkdirSync(join(baseDir, ".claude"), { recursive: true });
    writeFileSync(file, text, { flag: "wx", mode: 0o644 });
  } catch (err) {
    return failure(io, "install", `cannot write ${file}: ${(err as { code?: string }).code ?? String(err)}`);
  }
  io.out(
    `Config: wrote ${file} (the defaults for ${
      workflows.join(", ") || "the delivery core"
    }); every key with its default: schemas/config.v1.json, ${CONFIG_SCHEMA_URL}\n`,
  );
  return 0;
}
