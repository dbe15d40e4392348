import type { HookHandler } from "./handle_hook.ts";
import { HOOK_NAMES } from "./hook_names.ts";
import { runHook } from "./run_hook.ts";
import { VERSION } from "./version.ts";
import { writeFd } from "./write_fd.ts";

/** Where the CLI writes; tests pass collectors. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

// Each hook's code is imported only when that hook runs. The multicall binary is built with code
// splitting (build.ts), so this loads that hook's modules only; bundled as one file, every hook's
// and verb's code cost every run (`rehydrate stop`: 10.3 million instructions, split 8.2, dist/stop 7.6).
const HANDLERS: Record<string, () => Promise<HookHandler>> = {
  "pre-compact": async () => (await import("./pre_compact_hook.ts")).preCompactHook,
  "post-compact": async () => (await import("./post_compact_hook.ts")).postCompactHook,
  "session-start": async () => (await import("./session_start_hook.ts")).sessionStartHook,
  "user-prompt-submit": async () => (await import("./user_prompt_submit_hook.ts")).userPromptSubmitHook,
  "pre-tool-use": async () => (await import("./pre_tool_use_hook.ts")).preToolUseHook,
  "post-tool-use": async () => (await import("./post_tool_use_hook.ts")).postToolUseHook,
  stop: async () => (await import("./stop_hook.ts")).stopHook,
};

/** A CLI verb: gets the arguments after its name, returns the exit code. */
export type CliVerb = (args: string[], io: CliIo) => number | Promise<number>;

// Verbs are imported on demand so a hook run through the multicall binary does not pay for them.
const VERBS: Record<string, { summary: string; load: () => Promise<CliVerb> }> = {
  install: { summary: "register the hooks in Claude Code's settings", load: async () => (await import("./cli_install.ts")).cliInstall },
  uninstall: { summary: "remove the hooks install added", load: async () => (await import("./cli_uninstall.ts")).cliUninstall },
  doctor: { summary: "check the installation, config, state and hook latency", load: async () => (await import("./cli_doctor.ts")).cliDoctor },
  status: { summary: "what rehydrate knows about this project right now", load: async () => (await import("./cli_status.ts")).cliStatus },
  detect: { summary: "show what PreCompact would save from a transcript", load: async () => (await import("./cli_detect.ts")).cliDetect },
  validate: { summary: "validate manifests, state files, checkpoints and configs", load: async () => (await import("./cli_validate.ts")).cliValidate },
  migrate: { summary: "convert legacy _resume.md manifests to resume-context.md", load: async () => (await import("./cli_migrate.ts")).cliMigrate },
  ack: { summary: "acknowledge the orchestration checkpoints (stops the alert)", load: async () => (await import("./cli_ack.ts")).cliAck },
  "resume-prompt": { summary: "print the resumption prompt of an orchestration run", load: async () => (await import("./cli_resume_prompt.ts")).cliResumePrompt },
};

// Built when asked for: a hook run through this binary never prints it.
const help = (): string => `rehydrate ${VERSION}: compaction-survival hooks for Claude Code

Usage:
  rehydrate <hook> < hook-input.json   run a hook exactly as its own binary would
  rehydrate <verb> [options]           run a command (see below)
  rehydrate --version | --help

Hooks (one binary holds them all; dist/<hook> is the same code):
${Object.entries(HOOK_NAMES).map(([n, e]) => `  ${n.padEnd(20)} ${e}`).join("\n")}

Commands:
${Object.entries(VERBS).map(([n, v]) => `  ${n.padEnd(20)} ${v.summary}`).join("\n") || "  (none yet)"}

Every command answers --help. Errors are one line on stderr and a non-zero exit;
hooks never fail: they exit 0 with no output and log to debug.log (REHYDRATE_DEBUG=1).
`;

/**
 * The multicall entry: `rehydrate <hook>` runs that hook on stdin (exactly
 * like `dist/<hook>`), `rehydrate <verb> ...` runs a command, and
 * `--version` / `--help` print. Returns the exit code; hooks set
 * `process.exitCode` themselves and return `undefined`.
 *
 * @example
 * ```ts
 * process.exitCode = await cliMain(process.argv.slice(2));
 * ```
 */
export async function cliMain(argv: string[], io: CliIo = defaultIo()): Promise<number | undefined> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    io.out(help());
    return first === undefined ? 1 : 0;
  }
  if (first === "--version" || first === "-V" || first === "version") {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const load = HANDLERS[first];
  if (load) {
    let hook: HookHandler;
    try {
      hook = await load();
    } catch {
      return 0; // a hook never fails, even when its code cannot load
    }
    await runHook(HOOK_NAMES[first], hook, { args: rest });
    return undefined;
  }
  const verb = VERBS[first];
  if (verb) {
    try {
      return await (await verb.load())(rest, io);
    } catch (err) {
      io.err(`rehydrate ${first}: ${(err as Error).message}\n`);
      return 1;
    }
  }
  io.err(`rehydrate: unknown command "${first}"; run rehydrate --help for the list\n`);
  return 1;
}

// Synchronous writes, waiting as long as a blocking write would: `process.stdout` would cost
// every command (and the floor `rehydrate doctor` measures hooks against) about 3 ms to set up.
function defaultIo(): CliIo {
  return {
    out: (t) => void writeFd(1, t, Infinity),
    err: (t) => void writeFd(2, t, Infinity),
  };
}
