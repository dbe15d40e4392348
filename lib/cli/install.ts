import { existsSync, mkdirSync, statSync, writeFileSync } from "../node/fs.ts";
import { join, relative, resolve } from "../node/path.ts";
import type { CliIo } from "./main.ts";
import { commandPrefix, quoteShellPath, resolveBinary } from "./_install_command.ts";
import {
  detectWorkflows,
  parseWorkflows,
  projectConfig,
  readOptions,
  resolveEnv,
  settingsPath,
  type VerbEnv,
  type WorkflowFinding,
} from "./_install_detect.ts";
import { unifiedDiff } from "./_install_diff.ts";
import { hooksFor, planInstall, planUninstall, type Workflow } from "./_install_plan.ts";
import { readSettings, writeFailure, writeSettings } from "./_install_settings_file.ts";

/** The schema URL written as `$schema` by `--write-config` (the `$id` of `schemas/config.v1.json`). */
export const CONFIG_SCHEMA_URL = "https://rehydrate.dev/schemas/config.v1.json";

/** Options for {@linkcode cliInstall}: where things are. Every field has a real-world default. */
export interface CliInstallOptions extends VerbEnv {
  /** The running executable. Default `process.execPath`. */
  execPath?: string;
  /** URL of the running module, which tells a compiled binary from a source run. Default `import.meta.url`. */
  moduleUrl?: string;
}

const HELP = `Usage: rehydrate install [--project DIR | --user] [--workflows LIST] [--dry-run]
                         [--write-config] [--command PATH]

Registers rehydrate's hooks in Claude Code's settings: <DIR>/.claude/settings.json
(default DIR: the current directory) or, with --user, ~/.claude/settings.json.
Existing hooks, other keys, key order and formatting are kept; running it again
changes nothing; a backup settings.json.bak-<time> is written before any change;
an upgrade (another binary path) updates our entries in place.

Which hooks depends on the workflows the project uses (detected, or --workflows):
  always          PreCompact, SessionStart, UserPromptSubmit (the delivery core)
  projects        + PreToolUse and Stop when reread.enforce is true in the config
  orchestration   + PostCompact, PostToolUse (Write|Edit|MultiEdit)
  dispatch        + PreToolUse (*), PostToolUse (Skill), Stop

Options:
  --project DIR       the project to install into (default: the current directory)
  --user              install into ~/.claude/settings.json instead
  --workflows LIST    comma-separated: projects,orchestration,dispatch (or none)
  --dry-run           print the diff of the settings file and write nothing
  --write-config      also write a default .claude/rehydrate.json (never overwrites)
  --command PATH      the rehydrate binary the hooks run (default: this binary;
                      required when running from source with bun or deno)
  -h, --help          show this help

Examples:
  rehydrate install
  rehydrate install --dry-run --workflows projects,dispatch
  rehydrate install --user --command ~/.local/bin/rehydrate
  bun hooks/rehydrate.ts install --command dist/rehydrate --write-config
`;

/**
 * `rehydrate install`: registers the hooks the project's workflows need in a Claude Code
 * settings file, merging into what is there (see `--help`). Returns the exit code: 0 on success
 * (also when already installed), 1 when the settings file cannot be edited (invalid JSON is left
 * untouched) or no binary can be named, 2 on a usage error.
 *
 * @example
 * ```ts
 * const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) };
 * const code = cliInstall(["--project", "/work/repo", "--dry-run"], io);
 * ```
 */
export function cliInstall(args: string[], io: CliIo, options: CliInstallOptions = {}): number {
  if (args.includes("-h") || args.includes("--help")) {
    io.out(HELP);
    return 0;
  }
  const opts = readOptions(args, {
    flags: ["--user", "--dry-run", "--write-config"],
    values: ["--project", "--workflows", "--command"],
  });
  if (opts.error) return usage(io, opts.error);
  const user = opts.flags.has("--user");
  if (user && opts.values.has("--project")) return usage(io, "--project and --user exclude each other");
  const env = resolveEnv(options);
  const projectDir = resolve(env.cwd, opts.values.get("--project") ?? ".");
  if (!isDir(projectDir)) {
    io.err(`rehydrate install: no directory ${projectDir}; pass --project DIR\n`);
    return 1;
  }
  const dryRun = opts.flags.has("--dry-run");
  const loaded = projectConfig(projectDir, env);
  const findings = detectWorkflows(projectDir, loaded);
  let workflows: Workflow[];
  const list = opts.values.get("--workflows");
  if (list !== undefined) {
    const parsed = parseWorkflows(list);
    if ("unknown" in parsed) {
      return usage(io, `unknown workflow "${parsed.unknown}"; one of projects, orchestration, dispatch`);
    }
    workflows = parsed.workflows;
    io.out(`Workflows: ${workflows.join(", ") || "none (the delivery core only)"} (from --workflows)\n`);
  } else {
    workflows = findings.filter((f) => f.used).map((f) => f.workflow);
    printFindings(io, findings);
  }
  const specs = hooksFor(workflows, { enforceReread: loaded.config.reread.enforce === true });

  const binary = resolveBinary({
    command: opts.values.get("--command"),
    execPath: options.execPath,
    moduleUrl: options.moduleUrl ?? import.meta.url,
    cwd: env.cwd,
  });
  if ("error" in binary) {
    io.err(`rehydrate install: ${binary.error}\n`);
    return 1;
  }
  const prefix = user
    ? quoteShellPath(binary.path, env.platform)
    : commandPrefix(binary.path, { projectDir, platform: env.platform });
  const file = settingsPath({ user, projectDir }, env.homeDir);
  const scope = { root: user ? undefined : projectDir };
  const read = readSettings(file, scope);
  if ("error" in read) {
    io.err(`rehydrate install: ${read.error}; not changed\n`);
    return 1;
  }
  const plan = planInstall(read.text, { prefix, hooks: specs, knownBinaries: [prefix] });
  if (!plan.ok) {
    const e = plan.error;
    io.err(
      `rehydrate install: ${file}:${e.line}:${e.column}: ${e.message}; the file was left untouched, fix it and run again\n`,
    );
    return 1;
  }
  io.out(`Command: ${prefix} <hook>\n`);
  if (!plan.changed) {
    io.out(`Already installed in ${file}: ${plan.kept.join(", ")}\n`);
  } else if (dryRun) {
    io.out(unifiedDiff(read.text ?? "", plan.text, relativeName(file, projectDir, env.homeDir, user)));
    io.out(`Dry run: ${file} not written (${summary(plan)})\n`);
  } else {
    try {
      const backup = writeSettings(file, plan.text, {
        ...scope,
        now: env.now,
        newMode: user ? 0o600 : 0o644,
        old: read,
      });
      io.out(`Installed in ${file}: ${summary(plan)}\n`);
      if (backup) io.out(`Backup: ${backup}\n`);
    } catch (err) {
      io.err(`rehydrate install: ${writeFailure(file, err)}\n`);
      return 1;
    }
  }
  if (!dryRun) io.out(whatTheAgentGets(workflows, loaded.config.session.enabled !== false));
  const other = settingsPath({ user: !user, projectDir }, env.homeDir);
  if (resolve(other) !== resolve(file)) warnTwice(io, other, user ? "" : " --user", user ? projectDir : undefined);
  if (opts.flags.has("--write-config")) {
    const code = writeConfig(io, user ? env.homeDir : projectDir, workflows, dryRun);
    if (code !== 0) return code;
  }
  return 0;
}

function printFindings(io: CliIo, findings: WorkflowFinding[]): void {
  const used = findings.filter((f) => f.used);
  if (used.length === 0) {
    io.out(
      "No workflow detected: installing the delivery core (PreCompact, SessionStart, UserPromptSubmit); pass --workflows to choose\n",
    );
  } else {
    io.out(`Workflows: ${used.map((f) => `${f.workflow} (${f.evidence})`).join(", ")}\n`);
  }
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
  return `After each compaction the agent gets its open tasks, your latest requests and the files it edited (<session-context>)${
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

/** A project install next to a user install of ours (or the reverse) runs every hook twice: say so. */
function warnTwice(io: CliIo, otherFile: string, otherFlag: string, root: string | undefined): void {
  const read = readSettings(otherFile, { root });
  if ("error" in read || read.text === null) return;
  const plan = planUninstall(read.text);
  if (plan.ok && plan.removed.length > 0) {
    io.err(
      `rehydrate install: warning: ${otherFile} registers rehydrate too, so its hooks would run twice; run rehydrate uninstall${otherFlag} to keep one\n`,
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
    io.err(`rehydrate install: cannot write ${file}: ${(err as { code?: string }).code ?? String(err)}\n`);
    return 1;
  }
  io.out(
    `Config: wrote ${file} (the defaults for ${
      workflows.join(", ") || "the delivery core"
    }); every key with its default: schemas/config.v1.json, ${CONFIG_SCHEMA_URL}\n`,
  );
  return 0;
}

function usage(io: CliIo, message: string): number {
  io.err(`rehydrate install: ${message}; run rehydrate install --help\n`);
  return 2;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
