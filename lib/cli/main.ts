import { cliAck } from "./ack.ts";
import { cliDetect } from "./detect.ts";
import { cliDoctor } from "./doctor.ts";
import { cliInstall } from "./install.ts";
import { cliMigrate } from "./migrate.ts";
import { cliResumePrompt } from "./resume_prompt.ts";
import { cliStatus } from "./status.ts";
import { cliUninstall } from "./uninstall.ts";
import { cliValidate } from "./validate.ts";
import { HOOK_NAMES } from "../hook/hook_names.ts";
import { VERSION } from "../hook/version.ts";
import { writeFd } from "../node/write_fd.ts";
import { escapeInvisible } from "../redact/escape_invisible.ts";
import { asksHelp, asksVersion, failure, usageError } from "./_usage.ts";

/** Where the CLI writes; tests pass collectors. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** A CLI verb: gets the arguments after its name, returns the exit code. */
export type CliVerb = (args: string[], io: CliIo) => number | Promise<number>;

// The verbs are imported statically: an `import()` anywhere in a bundle makes the bundler wrap the
// modules it reaches, and the modules they share with the hooks, in lazy initialisers, in every
// bundle of the multicall binary (hooks/rehydrate.ts), hook bundles included, which made `rehydrate
// stop` dearer (bench/README.md, "The multicall binary"). The hooks are not here:
// hooks/rehydrate.ts runs them.
const VERBS: Record<string, { summary: string; run: CliVerb }> = {
  install: { summary: "register the hooks in Claude Code's settings (Codex's: --agent codex)", run: cliInstall },
  uninstall: { summary: "remove the hooks install added", run: cliUninstall },
  doctor: { summary: "check the installation, config, state and hook latency", run: cliDoctor },
  status: { summary: "what rehydrate knows about this project right now", run: cliStatus },
  detect: { summary: "show what PreCompact would save from a transcript", run: cliDetect },
  validate: { summary: "validate manifests, state files, checkpoints and configs", run: cliValidate },
  migrate: { summary: "convert legacy _resume.md manifests to resume-context.md", run: cliMigrate },
  ack: { summary: "acknowledge the orchestration checkpoints (stops the alert)", run: cliAck },
  "resume-prompt": { summary: "print the resumption prompt of an orchestration run", run: cliResumePrompt },
};

// Built when asked for.
const help = (): string =>
  `rehydrate ${VERSION}: compaction-survival hooks for Claude Code and the OpenAI Codex CLI

Usage:
  rehydrate <hook> < hook-input.json   run a hook exactly as its own binary would
  rehydrate <verb> [options]           run a command (see below)
  rehydrate -v | --version | -h | --help

Hooks (one binary holds them all; dist/<hook> is the same code):
${Object.entries(HOOK_NAMES).map(([n, e]) => `  ${n.padEnd(20)} ${e}`).join("\n")}

Commands:
${Object.entries(VERBS).map(([n, v]) => `  ${n.padEnd(20)} ${v.summary}`).join("\n") || "  (none yet)"}

Every command and hook answers -h/--help and -v/--version. A command exits 0 when
it worked, 1 when it failed (one line on stderr: rehydrate <command>: <what>) and 2
on a usage error (that line, then "Try 'rehydrate <command> --help'.").
Hooks never fail: they exit 0 with no output and log to debug.log (REHYDRATE_DEBUG=1).
`;

/**
 * The command line of the multicall binary: `rehydrate <verb> ...` runs a
 * command, and `-v`/`--version` / `-h`/`--help` print (also after a verb). Returns the exit code:
 * 0, 1 for a runtime failure, 2 for a usage error (lib/cli/_usage.ts).
 * `rehydrate <hook>` never gets here: hooks/rehydrate.ts runs the hook's own
 * entry instead (and answers `--version` itself, the floor `rehydrate doctor`
 * measures hooks against).
 *
 * @example
 * ```ts
 * process.exitCode = await cliMain(process.argv.slice(2));
 * ```
 */
export async function cliMain(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) return usageError(io, "", "missing command");
  if (first === "--help" || first === "-h" || first === "help") {
    io.out(help());
    return 0;
  }
  if (first === "--version" || first === "-v" || first === "-V" || first === "version") {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const verb = Object.hasOwn(VERBS, first) ? VERBS[first] : undefined;
  if (!verb) {
    return usageError(io, "", `unknown ${first.startsWith("-") ? "option" : "command"} ${JSON.stringify(first)}`);
  }
  // Help first: `--help --version` asks for the page that also names the version.
  if (!asksHelp(rest) && asksVersion(rest)) {
    io.out(`${VERSION}\n`);
    return 0;
  }
  try {
    return await verb.run(rest, io);
  } catch (err) {
    return failure(io, first, (err as Error).message);
  }
}

// Synchronous writes, waiting as long as a blocking write would: `process.stdout` would make
// every command (and the floor `rehydrate doctor` measures hooks against) set up Bun's stream
// objects (lib/node/write_fd.ts, bench/README.md). What a verb prints may quote a transcript or a
// repository (`resume-prompt` is pasted into a session): invisible and bidirectional control
// characters are shown as `\uXXXX`, as in the hooks' output (SECURITY.md).
function defaultIo(): CliIo {
  return {
    out: (t) => void writeFd(1, escapeInvisible(t), Infinity),
    err: (t) => void writeFd(2, escapeInvisible(t), Infinity),
  };
}
