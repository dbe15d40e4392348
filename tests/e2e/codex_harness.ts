// The end-to-end harness for the real Codex CLI (the pinned devDependency @openai/codex) against
// the Responses-API mock in mock_responses.ts: E2e's temp dir, network namespace, request log and
// tmux helpers, with a CODEX_HOME whose config.toml points a provider at the mock. See docs/e2e.md.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { E2e, type LoggedRequest, REHYDRATE, ROOT } from "./harness.ts";

export const CODEX: string = join(ROOT, "node_modules", ".bin", "codex");
/** The Codex version the scenarios and the fixtures were made with (package.json pins it). */
export const CODEX_VERSION = "0.171.0";
const MOCK: string = join(import.meta.dirname!, "mock_responses.ts");
/** The model the provider serves; the mock answers any. */
export const CODEX_MODEL = "gpt-5.5";

/** What one `codex exec` run did. */
export interface CodexRun {
  /** The thread's id (`session id:` in exec's header). */
  sessionId: string;
  /** The `/v1/responses` requests of this run, in order (compaction requests included). */
  requests: LoggedRequest[];
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Fails loudly when the client or our binary is missing: both are required, never skipped. */
export function requireCodex(): void {
  const v = spawnSync(CODEX, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (v.status !== 0) {
    throw new Error(
      `Codex cannot start (${CODEX}): ${v.error?.message ?? v.stderr}. It is a devDependency: run npm ci`,
    );
  }
  if (!existsSync(REHYDRATE)) throw new Error(`${REHYDRATE} is missing: run bun build.ts first`);
}

/** True for a Codex model turn: not the compaction and not the interactive client's title request. */
export function isCodexTurn(r: LoggedRequest): boolean {
  return r.url.endsWith("/responses") && r.kind !== "title" && r.kind !== "compact-summary";
}

/** A test file's Codex environment: the mock, a HOME with CODEX_HOME in it, the workspaces. */
export class CodexE2e extends E2e {
  /** `$HOME/.codex`, the client's config layer and sessions (`CODEX_HOME`). */
  readonly codexHome: string;
  private trusted: string[] = [];
  private extraConfig = "";
  /** More environment for every run of the client (and so for its hooks). */
  extraEnv: Record<string, string> = {};

  private constructor(scenario: string) {
    super(scenario, CODEX);
    this.codexHome = join(this.home, ".codex");
    mkdirSync(this.codexHome, { recursive: true });
    // The interactive prompt: `›` before the composer.
    this.promptPattern = /^\s*›/m;
  }

  /**
   * Starts the mock (in the namespace when there is one) and writes CODEX_HOME/config.toml.
   * `config` is more TOML for it (appended at the top level: `model_auto_compact_token_limit = N`).
   */
  static async startCodex(scenario: string, options: { config?: string } = {}): Promise<CodexE2e> {
    requireCodex();
    const e = new CodexE2e(scenario);
    await e.startMock(MOCK);
    e.extraConfig = options.config ?? "";
    e.writeConfig();
    return e;
  }

  /**
   * CODEX_HOME/config.toml: the mock as the provider, no update check, analytics or background
   * app-server daemon (the interactive client would start one that outlives it), the model
   * migration notice and the screen-reader question already answered (the interactive client
   * asks both once), `update_plan` offered (0.171.0 offers it only when asked for, see
   * docs/codex.md), and the workspaces trusted (project `.codex/` layers load only then).
   * Rewritten whole: run it before installing (the installer adds its trust entries to it).
   */
  writeConfig(): void {
    const projects = this.trusted.map((p) => `\n[projects.${JSON.stringify(p)}]\ntrust_level = "trusted"\n`).join("");
    const toml = `${this.extraConfig}
model = "${CODEX_MODEL}"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:${this.port}/v1"
wire_api = "responses"
requires_openai_auth = false
supports_websockets = false

[tools.update_plan]
enabled = true

[analytics]
enabled = false

[features]
daemon_auto_start = false

[tui]
screen_reader_detection_done = true

[notice.model_migrations]
"${CODEX_MODEL}" = "gpt-6-sol"
${projects}`;
    writeFileSync(join(this.codexHome, "config.toml"), toml);
  }

  override env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      HOME: this.home,
      CODEX_HOME: this.codexHome,
      XDG_CONFIG_HOME: join(this.home, ".config"),
      XDG_STATE_HOME: join(this.home, ".local", "state"),
      XDG_CACHE_HOME: join(this.home, ".cache"),
      REHYDRATE_DEBUG: "1",
      REHYDRATE_STATE_DIR: this.state,
      ...this.extraEnv,
      ...extra,
    };
  }

  /**
   * Copies `source` to a fresh project directory, makes it a git repository, trusts it in
   * config.toml and, unless `install` is false, runs the real installer for Codex
   * (`rehydrate install --agent codex --project DIR --command PATH`): the project's
   * `.codex/hooks.json` and the trust hashes in config.toml, so the hooks run without a review.
   */
  override workspace(source: string, options: { name?: string; install?: boolean } = {}): string {
    const project = join(this.dir, options.name ?? "workspace");
    cpSync(source, project, { recursive: true });
    spawnSync("git", ["init", "-q", "-b", "main", project], { encoding: "utf8" });
    this.trusted.push(project);
    this.writeConfig();
    if (options.install !== false) {
      const r = spawnSync(REHYDRATE, ["install", "--agent", "codex", "--project", project, "--command", REHYDRATE], {
        encoding: "utf8",
        env: this.env(),
        cwd: project,
      });
      if (r.status !== 0) {
        throw new Error(`rehydrate install --agent codex failed (${r.status}): ${r.stderr}${r.stdout}`);
      }
    }
    return project;
  }

  /**
   * Runs `codex exec` with `prompt` in `project` (resuming the thread `resume` when given) and
   * waits for it. The sandbox is workspace-write and approvals never: the scripted commands and
   * patches run as a user's would. Hooks run only when trusted (no `--dangerously-bypass-hook-trust`
   * unless `args` has it).
   */
  async exec(
    project: string,
    prompt: string,
    options: { resume?: string; env?: Record<string, string>; args?: string[] } = {},
  ): Promise<CodexRun> {
    const before = this.requests().length;
    const argv = [CODEX, "exec", "--skip-git-repo-check", "-s", "workspace-write", ...(options.args ?? [])];
    if (options.resume) argv.push("resume", options.resume);
    argv.push(prompt);
    const { code, stdout, stderr } = await this.runClient(argv, project, this.env(options.env), "Codex");
    const sessionId = /^session id: (\S+)$/m.exec(stderr + "\n" + stdout)?.[1] ?? "";
    if (code !== 0 || sessionId === "") {
      throw new Error(
        `codex exec ${JSON.stringify(prompt.slice(0, 80))} exited ${code}\nstdout: ${stdout.slice(-2000)}\nstderr: ${
          stderr.slice(-3000)
        }\n${this.debugLogTail()}`,
      );
    }
    const requests = this.requests().slice(before).filter((r) => r.url.endsWith("/responses"));
    return { sessionId, requests, stdout, stderr, code };
  }

  /** Presses one key (tmux's name for it: `Enter`, `Down`, `Escape`) in the interactive client. */
  tmuxKey(key: string): void {
    spawnSync("tmux", ["-L", this.tmuxSocket!, "send-keys", key]);
    spawnSync("sleep", ["0.3"]);
  }

  /**
   * Leaves the interactive client with `/quit` and waits until it has exited (it holds the
   * thread's writer lock until then: a `codex exec resume` of the same thread fails meanwhile
   * with "already has an active writer"), then stops tmux.
   */
  async tmuxQuit(): Promise<void> {
    if (this.tmuxSocket === null) return;
    const socket = this.tmuxSocket;
    this.tmuxType("/quit");
    try {
      await this.waitFor(
        () => spawnSync("tmux", ["-L", socket, "has-session"], { encoding: "utf8" }).status !== 0,
        "the interactive client to exit",
        15_000,
      );
    } finally {
      this.tmuxStop();
    }
  }

  /** Rollout files under CODEX_HOME/sessions, oldest first. */
  rollouts(): string[] {
    const out: string[] = [];
    const walk = (dir: string) => {
      if (!existsSync(dir)) return;
      for (const name of readdirSync(dir).sort()) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.startsWith("rollout-") && name.endsWith(".jsonl")) out.push(path);
      }
    };
    walk(join(this.codexHome, "sessions"));
    return out;
  }

  /** The rollout of the thread `sessionId`. */
  rollout(sessionId: string): string {
    const found = this.rollouts().find((p) => p.endsWith(`-${sessionId}.jsonl`));
    if (found === undefined) throw new Error(`no rollout for ${sessionId} under ${this.codexHome}/sessions`);
    return found;
  }

  /** The rows of a rollout whose `type` is `type` (and, for `event_msg`/`response_item`, payload type `payload`). */
  rolloutRows(path: string, type: string, payload?: string): Record<string, unknown>[] {
    const rows: Record<string, unknown>[] = [];
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (line === "") continue;
      const row = JSON.parse(line);
      if (row.type === type && (payload === undefined || row.payload?.type === payload)) rows.push(row);
    }
    return rows;
  }

  /** The first model turn after the newest compaction request among `requests`. */
  firstTurnAfterCompaction(requests: LoggedRequest[] = this.requests()): LoggedRequest | null {
    let seen = false;
    for (const r of requests) {
      if (r.kind === "compact-summary") seen = true;
      else if (seen && isCodexTurn(r)) return r;
    }
    return null;
  }
}
