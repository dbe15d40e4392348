import { spawnSync } from "node:child_process";
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
} from "../node/fs.ts";
import { join, resolve } from "../node/path.ts";
import type { CliIo } from "./main.ts";
import { cliValidate } from "./validate.ts";
import { stateDir } from "../state/state_dir.ts";
import { VERSION } from "../hook/version.ts";
import { HOOK_NAMES } from "../hook/hook_names.ts";
import { isVirtualPath } from "./_install_command.ts";
import {
  detectWorkflows,
  isDir,
  projectConfig,
  readOptions,
  type ResolvedEnv,
  resolveEnv,
  settingsPath,
  takeAgent,
  type VerbEnv,
} from "./_install_detect.ts";
import { doctorCodex } from "./_codex_doctor.ts";
import { hooksFor, listOurEntries, type OurEntry, type Workflow, WORKFLOWS } from "./_install_plan.ts";
import { readSettings } from "./_install_settings_file.ts";
import { commandBinary, newestTranscript, safeList, workflowFiles } from "./_doctor_files.ts";
import { asksHelp, failure, usageError } from "./_usage.ts";
import { projectRoot, rootLine } from "./_project_root.ts";
import { type HookLatency, measureHooks } from "./_doctor_latency.ts";
import { outsideLine } from "./_contained.ts";
import { binaryTrust, type SettingsScope } from "./_doctor_trust.ts";
import { offLine } from "./_off_line.ts";
import { atLeast, lastClientVersion, POST_MODEL_SWITCH_SINCE } from "./_client_version.ts";
import { locateConfigIssue, problemLine } from "./_problem_line.ts";
import { configNeeds } from "./_config_hooks.ts";
import type { LoadedConfig } from "../config/load_config.ts";

/** The verdict of one check. */
export type DoctorStatus = "pass" | "warn" | "fail";

/** One line of the doctor's report. */
export interface DoctorCheck {
  status: DoctorStatus;
  /** What was checked: `binary`, `settings`, `config`, `files`, `state`, `transcript`, `latency`. */
  area: string;
  message: string;
}

/** Options for {@linkcode cliDoctor}: where things are. */
export interface CliDoctorOptions extends VerbEnv {
  /** The running executable. Default `process.execPath`. */
  execPath?: string;
  /** URL of the running module (inside `/$bunfs` in a compiled binary). Default `import.meta.url`. */
  moduleUrl?: string;
  /** Timed runs per hook. Default 5. */
  runs?: number;
}

/** The hooks registered to run in the background (`"async": true`). */
const BACKGROUND: ReadonlySet<string> = new Set(
  hooksFor(WORKFLOWS, { enforceReread: true }).filter((s) => s.async).map((s) => s.hook),
);

const HELP = `Usage: rehydrate doctor [--project DIR] [--json] [--no-latency]
       rehydrate doctor --agent codex [--project DIR] [--json]

Checks the installation and prints one pass/warn/fail line per check; exits 1
when anything fails.

  binary       the binaries the settings name exist; this binary, and one your
               own ~/.claude/settings.json names outside the project that only
               you can write, run and print their version; any other binary
               (one a project's settings name) is named, never run
  settings     the project's local and shared settings and the user's register
               the hooks the workflows need, once, with timeouts in seconds
  config       .claude/rehydrate.json files are valid (unknown keys and bad
               types with their JSON path); keys a project's own file may not
               set (user-only keys, paths leaving the project) are ignored
               and named
  files        manifests, checkpoints and state files of the detected workflows
               are valid (as rehydrate validate checks them); a folder or file
               that links out of the project fails, named but not read
  state        the state directory is 0700 and ours, its files 0600
  transcript   the newest transcript of the project is readable
  latency      each installed hook of a binary doctor may run, 5 runs against
               its --version, in a scratch project (nothing in yours is
               touched); medians in ms

With --agent codex, the OpenAI Codex CLI's install instead: the project's
.codex/hooks.json and $CODEX_HOME/hooks.json register the hooks, each is
trusted in $CODEX_HOME/config.toml with the hash Codex checks (else Codex does
not run it), the binaries exist, and the project is trusted by Codex.

Options:
  --project DIR   the project to check (default: the nearest folder upward
                  with a .claude/ folder or .git, else the current directory)
  --json          print the report as JSON
  --no-latency    skip the timing
  --agent NAME    claude (the default) or codex
  -h, --help      show this help
  -v, --version   print the version

Examples:
  rehydrate doctor
  rehydrate doctor --project ~/work/site --no-latency
  rehydrate doctor --json | jq '.checks[] | select(.status != "pass")'
`;

/**
 * `rehydrate doctor`: checks binaries, settings entries, configs, workflow files, the state
 * directory, the newest transcript and the hooks' latency, and prints a pass/warn/fail list (or
 * JSON). Returns 1 when a check fails or the project is no directory, 0 otherwise, 2 on a usage
 * error.
 *
 * @example
 * ```ts
 * const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) };
 * const code = cliDoctor(["--no-latency"], io);
 * ```
 */
export function cliDoctor(args: string[], io: CliIo, options: CliDoctorOptions = {}): number {
  if (asksHelp(args)) {
    io.out(HELP);
    return 0;
  }
  const agent = takeAgent(args);
  if ("error" in agent) return usageError(io, "doctor", agent.error);
  if (agent.agent === "codex") return doctorCodex(agent.rest, io, options);
  const opts = readOptions(agent.rest, { flags: ["--json", "--no-latency"], values: ["--project"] });
  if (opts.error) return usageError(io, "doctor", opts.error);
  const env = resolveEnv(options);
  const found = projectRoot(env, opts.values.get("--project"));
  const projectDir = found.dir;
  if (!isDir(projectDir)) return failure(io, "doctor", `no directory ${projectDir}; pass --project DIR`);
  const checks: DoctorCheck[] = [];
  const add = (status: DoctorStatus, area: string, message: string) => void checks.push({ status, area, message });
  const loaded = projectConfig(projectDir, env);
  const workflows = detectWorkflows(projectDir, loaded).filter((f) => f.used).map((f) => f.workflow);

  // Settings, and from them the binaries.
  const scopes: { name: SettingsScope; file: string; entries: OurEntry[] }[] = [];
  const broken: string[] = [];
  for (const scope of ["local", "shared", "user"] as const) {
    const file = settingsPath(scope, { projectDir, homeDir: env.homeDir });
    const user = scope === "user";
    if (user && scopes.some((s) => resolve(s.file) === resolve(file))) continue;
    const read = readSettings(file, { root: user ? undefined : projectDir });
    if ("error" in read) {
      add("fail", "settings", read.error);
      broken.push(file);
      continue;
    }
    const listed = listOurEntries(read.text);
    if ("error" in listed) {
      add(
        "fail",
        "settings",
        `${file}:${listed.error.line}:${listed.error.column}: ${listed.error.message}; fix it by hand (rehydrate install leaves it untouched)`,
      );
      broken.push(file);
      continue;
    }
    scopes.push({ name: scope, file, entries: listed.entries });
  }
  checkSettings(scopes, workflows, loaded, broken, add);
  // Installed before Claude Code had run (or before 2.1.332), PostModelSwitch was left out; the
  // client this user runs now may send it.
  const client = lastClientVersion(env.env, env.homeDir);
  if (
    loaded.config.enabled !== false && atLeast(client, POST_MODEL_SWITCH_SINCE) &&
    scopes.some((s) => s.name !== "shared" && s.entries.length > 0) &&
    !scopes.some((s) => s.entries.some((e) => e.hook === "post-model-switch"))
  ) {
    add(
      "warn",
      "settings",
      `PostModelSwitch:post-model-switch is not registered, though Claude Code ${client} sends it; run rehydrate install, so that the fill warning follows /model`,
    );
  }
  const binaries = checkBinaries(scopes, projectDir, env, options, add);

  // Config.
  if (loaded.config.enabled === false) add("warn", "config", offLine(loaded.origins.enabled ?? null));
  if (loaded.issues.length === 0) {
    add(
      "pass",
      "config",
      loaded.sources.length ? `valid: ${loaded.sources.join(", ")}` : "no .claude/rehydrate.json: defaults",
    );
  }
  for (const issue of loaded.issues) {
    // A key the project may not set is ignored, as a misspelt one is: a warning, not a broken install.
    // In rehydrate validate's words (FILE:LINE: FIELD: MESSAGE).
    const ignored = issue.code === "unknown_key" || issue.code === "invalid_value" || issue.code === "user_only";
    add(
      ignored ? "warn" : "fail",
      "config",
      problemLine(issue.file, locateConfigIssue(issue, loaded.texts[issue.file])),
    );
  }

  checkWorkflowFiles(projectDir, loaded.config, workflows, add);
  const dir = stateDir({
    env: env.env,
    homeDir: env.homeDir,
    platform: env.platform,
    configured: loaded.config.stateDir,
  });
  checkStateDir(dir, env.platform, add);
  const transcript = newestTranscript(projectDir, env.homeDir, env.env);
  if ("missing" in transcript) {
    add("warn", "transcript", `${transcript.missing} (none until Claude Code runs in this project)`);
  } else {
    const problem = tailReadable(transcript.path);
    add(
      problem ? "fail" : "pass",
      "transcript",
      problem ?? `${transcript.path} readable (${(transcript.size / 1048576).toFixed(1)} MB)`,
    );
  }

  let latency: HookLatency[] = [];
  if (!opts.flags.has("--no-latency")) {
    // Every scope's entries, each hook once, and only a binary doctor may run (checkBinaries).
    const entries = scopes.flatMap((s) => s.entries);
    const seen = new Set<string>();
    const targets: { hook: string; binary: string; timeout?: number }[] = [];
    for (const e of entries) {
      const binary = commandBinary(e.command, projectDir, env.homeDir, env.env);
      // A background hook (the checkpoint) keeps nobody waiting: its time is not the user's.
      if (seen.has(e.hook) || e.async || !binaries.get(binary)) continue;
      seen.add(e.hook);
      targets.push({ hook: e.hook, binary, timeout: e.timeout });
    }
    if (targets.length === 0) add("warn", "latency", "no installed hook to time");
    latency = measureHooks(targets, {
      runs: options.runs,
      transcriptPath: "path" in transcript ? transcript.path : "",
      env: env.env,
    });
    latency.forEach((l, i) => {
      const ratio = l.floorMs > 0 ? l.medianMs / l.floorMs : 0;
      const limit = (targets[i].timeout ?? 600) * 1000;
      const text = `${l.hook}: ${l.medianMs.toFixed(1)} ms median (floor ${l.floorMs.toFixed(1)} ms, ${
        ratio.toFixed(2)
      }x, ${l.runs} runs)`;
      add(l.problem || l.medianMs > limit / 2 ? "warn" : "pass", "latency", l.problem ? `${text}; ${l.problem}` : text);
    });
  }

  const count = (s: DoctorStatus) => checks.filter((c) => c.status === s).length;
  const summary = { pass: count("pass"), warn: count("warn"), fail: count("fail") };
  if (opts.flags.has("--json")) {
    io.out(
      JSON.stringify({ version: VERSION, project: projectDir, workflows, checks, latency, summary }, null, 2) + "\n",
    );
  } else {
    io.out(`rehydrate doctor ${VERSION}: ${projectDir} (workflows: ${workflows.join(", ") || "none detected"})\n`);
    const foundLine = rootLine(found, env.cwd);
    if (foundLine) io.out(`${foundLine}\n`);
    for (const c of checks) io.out(`${c.status.padEnd(4)}  ${c.area.padEnd(10)}  ${c.message}\n`);
    io.out(`${summary.pass} passed, ${summary.warn} warnings, ${summary.fail} failed\n`);
  }
  return summary.fail > 0 ? 1 : 0;
}

type Add = (status: DoctorStatus, area: string, message: string) => void;

function checkSettings(
  scopes: { name: string; file: string; entries: OurEntry[] }[],
  workflows: Workflow[],
  loaded: LoadedConfig,
  broken: readonly string[],
  add: Add,
): void {
  const withEntries = scopes.filter((s) => s.entries.length > 0);
  if (withEntries.length === 0) {
    // A settings file that cannot be read may hold the hooks: install would refuse it too, so the
    // advice is to fix it, not to install.
    add(
      "fail",
      "settings",
      broken.length > 0
        ? `rehydrate is not registered in ${
          scopes.map((s) => s.file).join(" or ") || "any readable settings file"
        }, and ${broken.join(" and ")} cannot be checked: fix ${
          broken.length > 1 ? "them" : "it"
        } first, then run rehydrate doctor again`
        : `rehydrate is not registered in ${scopes.map((s) => s.file).join(" or ")}; run rehydrate install`,
    );
    return;
  }
  for (const s of withEntries) {
    add(
      "pass",
      "settings",
      `${s.file}: ${s.entries.map((e) => `${e.event}:${e.hook}`).join(", ")}`,
    );
  }
  const all = withEntries.flatMap((s) => s.entries);
  const hooks = new Set(all.map((e) => e.hook));
  for (const s of withEntries) {
    const counts = new Map<string, number>();
    for (const e of s.entries) counts.set(e.hook, (counts.get(e.hook) ?? 0) + 1);
    for (const [hook, n] of counts) {
      if (n > 1) add("warn", "settings", `${s.file} registers ${hook} ${n} times; run rehydrate install to tidy it`);
    }
  }
  if (withEntries.length > 1) {
    const both = [...hooks].filter((h) => withEntries.every((s) => s.entries.some((e) => e.hook === h)));
    if (both.length) {
      add(
        "warn",
        "settings",
        `${both.join(", ")} registered in ${
          withEntries.map((s) => s.name).join(" and ")
        } settings: they run twice; run rehydrate uninstall --${withEntries[withEntries.length - 1].name} (or --${
          withEntries[0].name
        }) to keep one`,
      );
    }
  }
  for (const e of all) {
    const wanted = HOOK_NAMES[e.hook];
    if (wanted !== e.event) {
      add("fail", "settings", `${e.hook} is registered under ${e.event}; it handles ${wanted}: run rehydrate install`);
    }
    if (BACKGROUND.has(e.hook) && !e.async) {
      add(
        "warn",
        "settings",
        `${e.event}:${e.hook} runs in the foreground, so every turn waits for it: it needs "async": true; run rehydrate install`,
      );
    }
    if (e.timeout === undefined) {
      add("warn", "settings", `${e.event}:${e.hook} has no timeout (Claude Code's default is 600 s)`);
    } else if (e.timeout >= 1000) {
      add(
        "warn",
        "settings",
        `${e.event}:${e.hook} timeout ${e.timeout} looks like milliseconds; hook timeouts are seconds`,
      );
    }
  }
  // A config value that asks for a hook which is not registered does nothing: a failure, with the
  // key, its file and the hooks (lib/cli/_config_hooks.ts checks every key).
  const failed = new Set<string>();
  for (const need of configNeeds(loaded.config)) {
    const lacking = need.hooks.filter((h) => !hooks.has(h));
    if (lacking.length === 0) continue;
    for (const h of lacking) failed.add(h);
    add(
      "fail",
      "settings",
      `${need.key}: ${JSON.stringify(need.value)} (${
        loaded.origins[need.key] ?? "the default"
      }) asks for ${need.what}, but ${lacking.map((h) => `${HOOK_NAMES[h]}:${h}`).join(", ")} ${
        lacking.length > 1 ? "are" : "is"
      } not registered; run rehydrate install`,
    );
  }
  const missing = hooksFor(workflows).filter((s) => !hooks.has(s.hook) && !failed.has(s.hook));
  if (missing.length) {
    add(
      "warn",
      "settings",
      `not registered but needed by ${workflows.join(", ") || "the delivery core"}: ${
        missing.map((s) => `${s.event}:${s.hook}`).join(", ")
      }; run rehydrate install`,
    );
  }
}

/**
 * Checks every binary the settings name (and this one); returns which of them can run. Only this
 * binary, or one the user's own settings name that nobody else can write, is ever run
 * (`_doctor_trust.ts`); another is named, "not run", and said not to be this rehydrate.
 */
function checkBinaries(
  scopes: { name: SettingsScope; file: string; entries: OurEntry[] }[],
  projectDir: string,
  env: ResolvedEnv,
  options: CliDoctorOptions,
  add: Add,
): Map<string, boolean> {
  const runnable = new Map<string, boolean>();
  const exec = options.execPath ?? process.execPath;
  if (isVirtualPath(options.moduleUrl ?? import.meta.url)) {
    add("pass", "binary", `this binary: ${realOr(exec)} (${VERSION})`);
  }
  for (const scope of scopes) {
    for (const e of scope.entries) {
      const binary = commandBinary(e.command, projectDir, env.homeDir, env.env);
      if (runnable.has(binary)) continue;
      if (!existsSync(binary) && e.guarded) {
        // A shared install's guard skips a missing binary silently: nothing breaks, nothing runs.
        runnable.set(binary, false);
        add(
          "warn",
          "binary",
          `${binary} (from the shared settings) is not on this machine, so its hooks do nothing here; put it on PATH or run rehydrate install`,
        );
        continue;
      }
      if (!existsSync(binary)) {
        runnable.set(binary, false);
        add(
          "fail",
          "binary",
          `${binary} (from "${e.command}") does not exist; run rehydrate install to point the settings at this binary`,
        );
        continue;
      }
      const trust = binaryTrust(binary, { scope: scope.name, execPath: exec, projectDir, platform: env.platform });
      if (!trust.run) {
        runnable.set(binary, false);
        const hooks = scope.entries.filter((o) =>
          commandBinary(o.command, projectDir, env.homeDir, env.env) === binary
        );
        add(
          "warn",
          "binary",
          `${scope.file} names ${binary}, not run: ${trust.why}; its entries (${
            hooks.map((o) => `${o.event}:${o.hook}`).join(", ")
          }) are not this rehydrate's`,
        );
        continue;
      }
      if (trust.why === "this binary") {
        runnable.set(binary, true);
        add("pass", "binary", `${binary} ${VERSION}`);
        continue;
      }
      try {
        accessSync(binary, constants.X_OK);
      } catch {
        runnable.set(binary, false);
        add("fail", "binary", `${binary} is not executable; chmod +x it`);
        continue;
      }
      const r = spawnSync(binary, ["--version"], {
        encoding: "utf8",
        timeout: 15_000,
        env: env.env as Record<string, string>,
      });
      const version = (r.stdout ?? "").trim();
      if (r.error || r.status !== 0 || version === "") {
        runnable.set(binary, false);
        add(
          "fail",
          "binary",
          `${binary} --version failed (${
            r.error ? (r.error as { code?: string }).code ?? r.error.message : `exit ${r.status}`
          }); reinstall the binary`,
        );
        continue;
      }
      runnable.set(binary, true);
      add(
        version === VERSION ? "pass" : "warn",
        "binary",
        `${binary} ${version}${
          version === VERSION ? "" : ` (this rehydrate is ${VERSION}: run rehydrate install to upgrade the entries)`
        }`,
      );
    }
  }
  return runnable;
}

function checkWorkflowFiles(
  projectDir: string,
  config: ReturnType<typeof projectConfig>["config"],
  workflows: Workflow[],
  add: Add,
): void {
  const { files, refused } = workflowFiles(projectDir, config, workflows);
  if (refused.length > 0) add("fail", "files", `${outsideLine(refused)}; the hooks ignore them too`);
  if (files.length === 0) {
    if (refused.length === 0) add("pass", "files", "no manifests or checkpoints to check");
    return;
  }
  let out = "";
  const code = cliValidate(["--quiet", "--", ...files], { out: (t) => void (out += t), err: (t) => void (out += t) }, {
    cwd: projectDir,
  });
  if (code === 0) {
    add("pass", "files", `${files.length} manifests, checkpoints and state files valid`);
    return;
  }
  for (const line of out.split("\n")) if (line) add("fail", "files", `${line}; see rehydrate validate --help`);
}

function checkStateDir(dir: string, platform: string, add: Add): void {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    add("warn", "state", `${dir} does not exist yet (the first hook run creates it, mode 0700)`);
    return;
  }
  if (st.isSymbolicLink()) {
    return add("fail", "state", `${dir} is a symbolic link; hooks refuse it: replace it with a directory`);
  }
  if (!st.isDirectory()) return add("fail", "state", `${dir} is not a directory; remove it`);
  if (platform === "win32") return add("pass", "state", `${dir} exists`);
  const uid = typeof process.getuid === "function" ? process.getuid() : -1;
  if (uid >= 0 && st.uid !== uid) {
    return add("fail", "state", `${dir} is owned by uid ${st.uid}, not ${uid}; hooks refuse it: remove it`);
  }
  if ((st.mode & 0o077) !== 0) add("fail", "state", `${dir} has mode ${octal(st.mode)}; run chmod 700 ${quote(dir)}`);
  const loose: string[] = [];
  let files = 0;
  walk(dir, 0);
  if (loose.length) {
    add(
      "fail",
      "state",
      `${loose.length} entries readable by others, e.g. ${loose[0]}; run chmod -R go-rwx ${quote(dir)}`,
    );
  } else if ((st.mode & 0o077) === 0) add("pass", "state", `${dir} (0700, ${files} files, all private)`);

  function walk(d: string, depth: number): void {
    for (const name of safeList(d)) {
      const p = join(d, name);
      let s;
      try {
        s = lstatSync(p);
      } catch {
        continue;
      }
      if (s.isDirectory()) {
        if ((s.mode & 0o077) !== 0) loose.push(`${p} (${octal(s.mode)})`);
        if (depth < 2) walk(p, depth + 1);
      } else if (s.isFile()) {
        files++;
        if ((s.mode & 0o077) !== 0) loose.push(`${p} (${octal(s.mode)})`);
      }
    }
  }
}

function tailReadable(path: string): string | null {
  let fd = -1;
  try {
    // Non-blocking, and a regular file only: a FIFO put in the transcript's place cannot hang us.
    fd = openSync(path, constants.O_RDONLY | ((constants as Record<string, number>).O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile()) return `${path} is not a regular file`;
    const size = st.size;
    const buf = new Uint8Array(Math.min(size, 65536));
    readSync(fd, buf, 0, buf.length, Math.max(0, size - buf.length));
    return null;
  } catch (err) {
    return `cannot read ${path}: ${(err as { code?: string }).code ?? String(err)}`;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

function octal(mode: number): string {
  return "0" + (mode & 0o777).toString(8);
}

function quote(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, "'\\''")}'`;
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
