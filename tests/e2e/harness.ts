// The end-to-end harness: the real Claude Code CLI (the pinned devDependency) against the mock
// Messages API in mock_api.ts, with rehydrate's compiled hooks installed in a throwaway copy of a
// workspace. Everything lives in one temporary directory per test file: HOME (and the XDG dirs),
// the state directory, the request log. As root, with `ip netns` working, the mock and the client
// run in a private network namespace with only `lo` up; otherwise on plain loopback.
// See docs/e2e.md.
import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT: string = join(import.meta.dirname!, "..", "..");
export const DIST: string = process.env.REHYDRATE_TEST_DIST || join(ROOT, "dist");
export const CLAUDE: string = join(ROOT, "node_modules", ".bin", "claude");
/**
 * The oldest client rehydrate supports (README, plugin `engines`): the devDependency alias
 * `claude-code-oldest` (`npm:@anthropic-ai/claude-code@2.1.197`), for the smoke run in oldest.test.ts.
 */
export const CLAUDE_OLDEST: string = join(ROOT, "node_modules", "claude-code-oldest", "bin", "claude.exe");
/** The version of {@link CLAUDE_OLDEST}. */
export const OLDEST_VERSION = "2.1.197";
/** The multicall binary under test (REHYDRATE_E2E_BIN overrides dist/rehydrate). */
export const REHYDRATE: string = process.env.REHYDRATE_E2E_BIN || join(DIST, "rehydrate");
export const RESULTS: string = join(import.meta.dirname!, "results");
const MOCK: string = join(import.meta.dirname!, "mock_api.ts");
const API_KEY = "sk-ant-api03-e2e-dummy-key-0000000000000000";
/** The trivial Node hook the latency report compares against (prints nothing). */
export const NODE_HOOK = `node -e "process.stdin.resume();process.stdin.on('end',()=>{})"`;
/** The same, printing one character: Claude Code only records SessionStart hooks that print. */
export const NODE_HOOK_PRINTING =
  `node -e "process.stdin.resume();process.stdin.on('end',()=>process.stdout.write('.'))"`;

const OUR_COMMAND =
  /rehydrate["']?\s+(?:pre-compact|post-compact|session-start|user-prompt-submit|pre-tool-use|post-tool-use|stop|session-checkpoint|post-model-switch)\s*$/;

/** True when a hook command is ours (`"<path>/rehydrate" <hook>`, however the installer spells the path). */
export function isOurCommand(command: string): boolean {
  return OUR_COMMAND.test(command);
}

/** One request the mock received (a line of its log). */
export interface LoggedRequest {
  n: number;
  method: string;
  url: string;
  kind: string;
  body: unknown;
  reply: unknown;
}

/** What one `claude -p` run did. */
export interface ClaudeRun {
  sessionId: string;
  result: Record<string, unknown>;
  /** The `/v1/messages` requests of this run, in order (compaction requests included). */
  requests: LoggedRequest[];
  stderr: string;
}

/** One hook duration as Claude Code recorded it in a transcript. */
export interface HookDuration {
  scenario: string;
  hook: string;
  command: string;
  durationMs: number;
  source: "hook_success" | "stop_hook_summary";
}

/** Fails loudly when the client or our binaries are missing: both are required, never skipped. */
export function requireBinaries(claude: string = CLAUDE): void {
  const v = spawnSync(claude, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (v.status !== 0) {
    throw new Error(
      `Claude Code cannot start (${claude}): ${v.error?.message ?? v.stderr}. It is a devDependency: run npm ci`,
    );
  }
  if (!existsSync(REHYDRATE)) throw new Error(`${REHYDRATE} is missing: run bun build.ts first`);
}

/** True when tmux can run here (interactive scenarios skip with a message otherwise). */
export function tmuxAvailable(): boolean {
  return spawnSync("tmux", ["-V"], { encoding: "utf8" }).status === 0;
}

/** Creates the network namespace `name` with only `lo` up; false when this machine cannot. */
export function tryNetns(name: string): boolean {
  if (process.platform !== "linux" || process.getuid?.() !== 0 || process.env.REHYDRATE_E2E_NETNS === "0") return false;
  if (spawnSync("ip", ["netns", "add", name], { encoding: "utf8" }).status !== 0) return false;
  if (spawnSync("ip", ["netns", "exec", name, "ip", "link", "set", "lo", "up"], { encoding: "utf8" }).status !== 0) {
    spawnSync("ip", ["netns", "del", name]);
    return false;
  }
  return true;
}

/**
 * Registers rehydrate's hooks in `projectDir/.claude/settings.json`: with the real installer
 * (`rehydrate install --project DIR --command PATH`) when the multicall binary has that verb,
 * else by writing the settings it would write: one entry per event, each command
 * `"<abs>/dist/rehydrate" <hook>`, matchers per the hooks reference.
 */
export function installHooks(projectDir: string, env?: Record<string, string>): "installer" | "written" {
  const help = spawnSync(REHYDRATE, ["--help"], { encoding: "utf8" });
  if (/^\s+install\s/m.test(help.stdout ?? "")) {
    const r = spawnSync(REHYDRATE, ["install", "--project", projectDir, "--command", REHYDRATE], {
      encoding: "utf8",
      env,
    });
    if (r.status !== 0) throw new Error(`rehydrate install failed (${r.status}): ${r.stderr}${r.stdout}`);
    // The installer writes settings.local.json by default, which the scenarios own (permissions,
    // their capture hooks, written whole by workspace()): ours move to settings.json, where the
    // installer put them before, by this machine's absolute path.
    const local = join(projectDir, ".claude", "settings.local.json");
    if (existsSync(local)) renameSync(local, join(projectDir, ".claude", "settings.json"));
    return "installer";
  }
  const entry = (hook: string, matcher?: string, timeout = 30) => [{
    ...(matcher ? { matcher } : {}),
    hooks: [{ type: "command", command: `"${REHYDRATE}" ${hook}`, timeout }],
  }];
  const settings = {
    hooks: {
      PreCompact: entry("pre-compact", "manual|auto", 60),
      SessionStart: entry("session-start", "startup|resume|clear|compact|fork"),
      UserPromptSubmit: entry("user-prompt-submit", undefined, 25),
      PreToolUse: entry("pre-tool-use", "*"),
      PostToolUse: entry("post-tool-use", "Write|Edit|MultiEdit|NotebookEdit|Skill"),
      PostCompact: entry("post-compact", "manual|auto"),
      Stop: entry("stop"),
      PostModelSwitch: entry("post-model-switch", undefined, 10),
    },
  };
  mkdirSync(join(projectDir, ".claude"), { recursive: true });
  writeFileSync(join(projectDir, ".claude", "settings.json"), JSON.stringify(settings, null, 2) + "\n");
  return "written";
}

/** Every string inside a JSON value, in order (request bodies hold text in nested blocks). */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) { for (const v of value) stringsOf(v, out); }
  else if (value && typeof value === "object") { for (const v of Object.values(value)) stringsOf(v, out); }
  return out;
}

/** The decoded text of a request's messages and system prompt, joined. */
export function requestText(request: LoggedRequest): string {
  return stringsOf(request.body).join("\n\u241e\n");
}

/** Counts the non-overlapping occurrences of `needle` in `text`. */
export function count(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

const OUR_ELEMENTS =
  /<(session-context|nexus-context|context-monitor|compaction-alert|compaction-reminder|orchestration-resume)\b[^>]*?(?:\/>|>[\s\S]*?<\/\1>)/g;

/** Our injected XML elements found in a request, with their text (one entry per occurrence). */
export function ourElements(request: LoggedRequest): string[] {
  const found: string[] = [];
  for (const s of stringsOf(request.body)) for (const m of s.matchAll(OUR_ELEMENTS)) found.push(m[0]);
  return found;
}

/** Text around the first match of `needle` (or the start) for failure messages. */
export function excerpt(text: string, needle: string | null, radius = 1500): string {
  const at = needle ? text.indexOf(needle) : -1;
  const start = Math.max(0, at < 0 ? 0 : at - radius / 3);
  return text.slice(start, start + radius);
}

/** True for a model turn: a `/v1/messages` call that is not token counting or a title request. */
export function isTurnRequest(r: LoggedRequest): boolean {
  return r.url.startsWith("/v1/messages") && !r.url.startsWith("/v1/messages/count_tokens") && r.kind !== "title";
}

/** The first `/v1/messages` request after the newest compaction request in `requests`. */
export function firstAfterCompaction(requests: LoggedRequest[]): LoggedRequest | null {
  let seen = false;
  for (const r of requests) {
    if (r.kind === "compact-summary") seen = true;
    else if (seen && isTurnRequest(r)) return r;
  }
  return null;
}

/** A test file's environment: the mock, a HOME, the state directory, the workspaces. */
export class E2e {
  readonly dir: string;
  readonly home: string;
  readonly state: string;
  readonly logFile: string;
  readonly netns: string | null;
  readonly scenario: string;
  /** The client binary this file runs (the pinned one unless `E2e.start` was told otherwise). */
  readonly client: string;
  port = 0;
  protected mock: ReturnType<typeof spawn> | null = null;
  /** What the client's interactive prompt looks like on the tmux screen. */
  protected promptPattern: RegExp = /❯|>\s*$/m;
  private projects: string[] = [];
  private sessions = new Map<string, string>();

  protected constructor(scenario: string, client: string) {
    this.scenario = scenario;
    this.client = client;
    this.dir = mkdtempSync(join(tmpdir(), `rehydrate-e2e-${scenario}-`));
    this.home = join(this.dir, "home");
    this.state = join(this.home, ".local", "state", "rehydrate-e2e");
    this.logFile = join(this.dir, "requests.jsonl");
    mkdirSync(this.home, { recursive: true });
    writeFileSync(this.logFile, "");
    const ns = `rehydrate-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    this.netns = tryNetns(ns) ? ns : null;
  }

  /** Starts the mock API (in the namespace when there is one) and returns the environment. */
  static async start(scenario: string, options: { claude?: string } = {}): Promise<E2e> {
    const client = options.claude ?? CLAUDE;
    requireBinaries(client);
    const e = new E2e(scenario, client);
    await e.startMock(MOCK);
    return e;
  }

  /** Starts the mock server `script` (mock_api.ts or mock_responses.ts) and records its port. */
  protected async startMock(script: string): Promise<void> {
    const argv = [process.execPath, script, "--log", this.logFile];
    const child = this.netns ? spawn("ip", ["netns", "exec", this.netns, ...argv]) : spawn(argv[0], argv.slice(1));
    this.mock = child;
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    this.port = await new Promise<number>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`mock API did not start: ${stderr}`)), 15_000);
      child.stdout!.on("data", (d) => {
        out += d;
        const line = out.split("\n")[0];
        if (out.includes("\n")) {
          clearTimeout(timer);
          try {
            resolve(JSON.parse(line).port);
          } catch {
            reject(new Error(`mock API said: ${line} ${stderr}`));
          }
        }
      });
      child.on("exit", (code) => reject(new Error(`mock API exited (${code}): ${stderr}`)));
    });
  }

  /** Stops the mock, deletes the namespace and (unless REHYDRATE_E2E_KEEP=1) the directory. */
  close(): void {
    this.mock?.kill();
    if (this.netns) spawnSync("ip", ["netns", "del", this.netns]);
    if (process.env.REHYDRATE_E2E_KEEP === "1") console.log(`kept ${this.dir}`);
    else rmSync(this.dir, { recursive: true, force: true });
  }

  /** The environment of the guide, plus rehydrate's debug log and state inside this HOME. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      HOME: this.home,
      XDG_CONFIG_HOME: join(this.home, ".config"),
      XDG_STATE_HOME: join(this.home, ".local", "state"),
      XDG_CACHE_HOME: join(this.home, ".cache"),
      XDG_DATA_HOME: join(this.home, ".local", "share"),
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${this.port}`,
      ANTHROPIC_API_KEY: API_KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      // 2.1.332 offers the task tools (TaskCreate, TaskUpdate...) only to the older models (Opus
      // 4.0-4.7, Sonnet 4.x, Haiku 4.5) unless this is set; the scenarios plan their work with
      // them, as users who turn them on do. 2.1.197 offers them anyway.
      CLAUDE_CODE_ENABLE_TODO_TOOLS: "1",
      REHYDRATE_DEBUG: "1",
      REHYDRATE_STATE_DIR: this.state,
      ...extra,
    };
  }

  /**
   * Copies `source` to a fresh project directory, installs the hooks, lets the tools run without
   * prompts (`permissions.allow` in `settings.local.json`, trusted in `$HOME/.claude.json`) and
   * optionally registers the trivial Node hook beside ours for every event.
   */
  workspace(source: string, options: { name?: string; nodeHooks?: boolean } = {}): string {
    const project = join(this.dir, options.name ?? "workspace");
    cpSync(source, project, { recursive: true });
    this.projects.push(project);
    const projects: Record<string, unknown> = {};
    for (const p of this.projects) projects[p] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true };
    writeFileSync(
      join(this.home, ".claude.json"),
      JSON.stringify(
        {
          hasCompletedOnboarding: true,
          customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
          projects,
          // What the client writes at its first interactive start; the installer reads it to
          // register the events only newer clients know (PostModelSwitch).
          lastReleaseNotesSeen: this.clientVersion(),
        },
        null,
        2,
      ),
    );
    // The installer sees this HOME (and its .claude.json), not the caller's.
    installHooks(project, this.env());
    const local: Record<string, unknown> = {
      permissions: { allow: ["Read", "Edit", "Write", "Bash", "Glob", "Grep"] },
    };
    if (options.nodeHooks) {
      const node = (
        command: string,
        matcher?: string,
      ) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command, timeout: 30 }] }];
      local.hooks = {
        PreCompact: node(NODE_HOOK, "manual|auto"),
        SessionStart: node(NODE_HOOK_PRINTING, "startup|resume|clear|compact|fork"),
        UserPromptSubmit: node(NODE_HOOK),
        PreToolUse: node(NODE_HOOK, "*"),
        PostToolUse: node(NODE_HOOK, "Write|Edit|MultiEdit|NotebookEdit|Skill"),
        PostCompact: node(NODE_HOOK, "manual|auto"),
        Stop: node(NODE_HOOK),
      };
    }
    writeFileSync(join(project, ".claude", "settings.local.json"), JSON.stringify(local, null, 2) + "\n");
    return project;
  }

  /**
   * Registers, beside ours in the project's `.claude/settings.local.json` (after `workspace()`
   * wrote it), a capture hook for each of `events`: it appends the hook's input, one JSON line, to
   * a file of this run and prints nothing, so it adds nothing to what reaches the model. Returns a
   * reader of the inputs captured so far, in order: what a scenario waits on.
   */
  captureHookInputs<T = { hook_event_name: string; source?: string }>(
    project: string,
    events: readonly string[],
  ): () => T[] {
    const file = join(this.dir, `hook-inputs-${nonce()}.jsonl`);
    const capture = [{ hooks: [{ type: "command", command: `{ cat; echo; } >> '${file}'`, timeout: 30 }] }];
    const localPath = join(project, ".claude", "settings.local.json");
    const local = JSON.parse(readFileSync(localPath, "utf8"));
    local.hooks = Object.fromEntries(events.map((event) => [event, capture]));
    writeFileSync(localPath, JSON.stringify(local, null, 2) + "\n");
    return () =>
      existsSync(file)
        ? readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as T)
        : [];
  }

  private version: string | null = null;

  /** `X.Y.Z` of the client this file runs. */
  clientVersion(): string {
    if (this.version === null) {
      const out = spawnSync(this.client, ["--version"], { encoding: "utf8", timeout: 30_000 }).stdout ?? "";
      this.version = /^(\d+\.\d+\.\d+)/.exec(out.trim())?.[1] ?? "0.0.0";
    }
    return this.version;
  }

  /** Every request the mock has logged so far. */
  requests(): LoggedRequest[] {
    const text = readFileSync(this.logFile, "utf8");
    return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  }

  protected wrap(argv: string[]): [string, string[]] {
    return this.netns ? ["ip", ["netns", "exec", this.netns, ...argv]] : [argv[0], argv.slice(1)];
  }

  /** Runs `claude -p prompt` (resuming `resume` when given) in `project` and waits for it. */
  async claude(
    project: string,
    prompt: string,
    options: { resume?: string; env?: Record<string, string>; extraArgs?: string[] } = {},
  ): Promise<ClaudeRun> {
    const before = this.requests().length;
    const argv = [this.client, "-p", prompt, "--output-format", "json"];
    if (options.resume) argv.push("--resume", options.resume);
    if (options.extraArgs) argv.push(...options.extraArgs);
    const { code, stdout, stderr } = await this.runClient(argv, project, this.env(options.env), "Claude Code");
    let result: Record<string, unknown>;
    try {
      result = JSON.parse(stdout.trim().split("\n").pop() ?? "");
    } catch {
      throw new Error(
        `claude -p ${JSON.stringify(prompt.slice(0, 80))} exited ${code} without a JSON result\nstdout: ${
          stdout.slice(0, 2000)
        }\nstderr: ${stderr.slice(0, 2000)}\n${this.debugLogTail()}`,
      );
    }
    const sessionId = String(result.session_id ?? "");
    this.sessions.set(sessionId, project);
    const requests = this.requests().slice(before).filter(isTurnRequest);
    return { sessionId, result, requests, stderr };
  }

  /**
   * Runs `argv` (a client's command line) in `project` with `env`, in the namespace when there is
   * one, and collects its output; killed after two minutes.
   */
  protected runClient(
    argv: string[],
    project: string,
    env: Record<string, string>,
    name: string,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const [cmd, args] = this.wrap(argv);
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, args, { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
      child.on("error", (e) => {
        clearTimeout(timer);
        reject(new Error(`${name} cannot start: ${e.message}`));
      });
      child.on("close", (c) => {
        clearTimeout(timer);
        resolve({ code: c, stdout: out, stderr: err });
      });
    });
  }

  /** The transcript Claude Code keeps for a session of `project`. */
  transcriptPath(project: string, sessionId: string): string {
    return join(this.home, ".claude", "projects", project.replace(/[^a-zA-Z0-9]/g, "-"), `${sessionId}.jsonl`);
  }

  /** rehydrate's debug log (REHYDRATE_DEBUG=1), last lines. */
  debugLogTail(lines = 40): string {
    const path = join(this.state, "debug.log");
    if (!existsSync(path)) return "(no rehydrate debug log)";
    return "rehydrate debug.log:\n" + readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  }

  /** A failure message: what was expected, the request excerpt around it, the hook log. */
  explain(what: string, request: LoggedRequest | null, needle: string | null = null): string {
    if (request === null) return `${what}: no such request (log ${this.logFile})\n${this.debugLogTail()}`;
    const text = requestText(request);
    return `${what} (request #${request.n}, ${text.length} chars of text)\n--- request excerpt ---\n${
      excerpt(text, needle)
    }\n--- end ---\n${this.debugLogTail()}`;
  }

  /** Runs the multicall binary (a CLI verb) with this HOME and state directory. */
  rehydrate(args: string[], project: string): { status: number | null; stdout: string; stderr: string } {
    const r = spawnSync(REHYDRATE, args, {
      cwd: project,
      env: { ...this.env(), CLAUDE_PROJECT_DIR: project },
      encoding: "utf8",
    });
    return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  }

  /** Hook durations Claude Code recorded in every transcript under this HOME. */
  hookDurations(): HookDuration[] {
    const out: HookDuration[] = [];
    const root = join(this.home, ".claude", "projects");
    if (!existsSync(root)) return out;
    for (const dir of readdirSync(root)) {
      for (const name of readdirSync(join(root, dir))) {
        if (!name.endsWith(".jsonl")) continue;
        for (const line of readFileSync(join(root, dir, name), "utf8").split("\n")) {
          if (!line.includes("hook_success") && !line.includes("stop_hook_summary")) continue;
          // deno-lint-ignore no-explicit-any -- a transcript row of any shape
          let row: Record<string, any>;
          try {
            row = JSON.parse(line);
          } catch {
            continue;
          }
          const a = row.attachment;
          if (row.type === "attachment" && a?.type === "hook_success" && typeof a.durationMs === "number") {
            out.push({
              scenario: this.scenario,
              hook: a.hookName,
              command: a.command ?? "",
              durationMs: a.durationMs,
              source: "hook_success",
            });
          } else if (row.type === "system" && row.subtype === "stop_hook_summary" && Array.isArray(row.hookInfos)) {
            for (const h of row.hookInfos) {
              if (typeof h.durationMs === "number") {
                out.push({
                  scenario: this.scenario,
                  hook: "Stop",
                  command: h.command ?? "",
                  durationMs: h.durationMs,
                  source: "stop_hook_summary",
                });
              }
            }
          }
        }
      }
    }
    return out;
  }

  /** With REHYDRATE_E2E_LATENCY=1, adds this file's hook durations to the run's pooled log (latency.ts). */
  recordLatency(): void {
    if (process.env.REHYDRATE_E2E_LATENCY !== "1") return;
    const rows = this.hookDurations();
    if (rows.length > 0) appendFileSync(latencyLogPath(), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  }

  /**
   * A prompt naming a mock script kept beside the request log (`[mock:<id>]`, see mock_api.ts):
   * the prompt is the user's words and the id, so a summary quoting it holds none of the script's
   * tool inputs (a task's subject, a file's contents).
   */
  script(text: string, steps: unknown[]): string {
    const id = nonce();
    const dir = join(this.dir, "mock-scripts");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.json`), JSON.stringify(steps));
    return `${text} [mock:${id}]`;
  }

  // ---- interactive mode (tmux) ----

  protected tmuxSocket: string | null = null;

  /**
   * Starts `claude` interactively in a detached tmux session (with `options.args` after it);
   * resolves once it shows its prompt.
   */
  async tmuxStart(project: string, options: { env?: Record<string, string>; args?: string[] } = {}): Promise<void> {
    this.tmuxSocket = `rehydrate-e2e-${process.pid}-${Math.random().toString(36).slice(2, 6)}`;
    const env = this.env(options.env);
    const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
    const extra = (options.args ?? []).map(shellQuote).join(" ");
    const command = `cd ${shellQuote(project)} && exec env -i ${assignments} ${shellQuote(this.client)} ${extra}`;
    const [cmd, args] = this.wrap([
      "tmux",
      "-L",
      this.tmuxSocket,
      "new-session",
      "-d",
      "-x",
      "200",
      "-y",
      "50",
      command,
    ]);
    const r = spawnSync(cmd, args, {
      encoding: "utf8",
      env: { PATH: env.PATH, HOME: this.home, TERM: "xterm-256color" },
    });
    if (r.status !== 0) throw new Error(`tmux new-session failed: ${r.stderr}`);
    await this.waitFor(() => this.promptPattern.test(this.tmuxScreen()), "the interactive prompt", 30_000);
    // 2.1.332 redraws its screen once more after the prompt first shows (startup notices), and
    // keys typed meanwhile are lost.
    await this.tmuxSettle("a settled interactive screen");
  }

  /** Waits until the screen shows the prompt and has not changed for a second. */
  async tmuxSettle(what: string, ms = 30_000): Promise<void> {
    let last = "";
    let since = Date.now();
    await this.waitFor(
      () => {
        const now = this.tmuxScreen();
        if (now !== last) {
          last = now;
          since = Date.now();
        }
        return this.promptPattern.test(now) && Date.now() - since >= 1000;
      },
      what,
      ms,
    );
  }

  tmuxScreen(): string {
    if (!this.tmuxSocket) return "";
    return spawnSync("tmux", ["-L", this.tmuxSocket, "capture-pane", "-p"], { encoding: "utf8" }).stdout ?? "";
  }

  /** Types `text` and presses Enter. */
  tmuxType(text: string): void {
    spawnSync("tmux", ["-L", this.tmuxSocket!, "send-keys", "-l", text]);
    spawnSync("sleep", ["0.4"]);
    spawnSync("tmux", ["-L", this.tmuxSocket!, "send-keys", "Enter"]);
  }

  /**
   * Types `text` until the screen shows `mark` (a part of it, such as a nonce), then presses
   * Enter. Keys typed while the client redraws (after /model, for one) are lost without a trace;
   * this types again, up to three times, when none of the text arrived.
   */
  async tmuxTypeSeen(text: string, mark: string): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      spawnSync("tmux", ["-L", this.tmuxSocket!, "send-keys", "-l", text]);
      try {
        await this.waitFor(() => this.tmuxScreen().includes(mark), `the typed text "${mark}"`, 5_000);
        break;
      } catch (err) {
        if (attempt === 2) throw err;
      }
    }
    spawnSync("sleep", ["0.4"]);
    spawnSync("tmux", ["-L", this.tmuxSocket!, "send-keys", "Enter"]);
  }

  tmuxStop(): void {
    if (!this.tmuxSocket) return;
    spawnSync("tmux", ["-L", this.tmuxSocket, "kill-server"]);
    this.tmuxSocket = null;
  }

  /** Polls `check` every 100 ms until true, else throws after `ms` naming `what`. */
  async waitFor(check: () => boolean, what: string, ms = 30_000): Promise<void> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}\n--- screen ---\n${this.tmuxScreen()}\n${this.debugLogTail()}`);
  }
}

/** `s` quoted for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Where the test files of one `bun test` run pool their hook durations. */
export function latencyLogPath(): string {
  return join(tmpdir(), `rehydrate-e2e-latency-${process.pid}.jsonl`);
}

/** A fresh nonce so two prompts of one session never carry the same script text. */
export function nonce(): string {
  return Math.random().toString(36).slice(2, 10);
}

/** A prompt carrying a mock script (see mock_api.ts). */
export function scripted(text: string, steps: unknown[]): string {
  return `${text} [${nonce()}] <mock>${JSON.stringify(steps)}</mock>`;
}
