import type { HookEventName, HookInput } from "./hook_types.ts";
import { handleHook, type HookHandler, type HookHost } from "./handle_hook.ts";
import { readStdin } from "./read_stdin.ts";
import { hookHelp } from "./hook_help.ts";
import { HOOK_NAMES } from "./hook_names.ts";
import { VERSION } from "./version.ts";
import { writeFd } from "../node/write_fd.ts";

/** Options for {@linkcode runHook}. */
export interface RunHookOptions<E extends HookEventName = HookEventName> {
  /** The entry's arguments. Default `process.argv.slice(2)`. */
  args?: string[];
  /** Stdin, when the entry has read it already. Default: read here. */
  stdin?: string;
  /** The input parsed from `stdin` already (`parseHookInput` with this event). Default: parsed by {@linkcode handleHook}. */
  input?: HookInput<E>;
  /**
   * The hook's name (`HOOK_NAMES`), for `--help`, when more than one hook handles the event (Stop:
   * `stop` and `session-checkpoint`). Default: the first name of the event.
   */
  name?: string;
}

/**
 * The whole body of a hook entry: reads stdin to EOF (16 MiB cap; `options.stdin` when the entry
 * has read it already), runs the handler through {@linkcode handleHook}, writes its stdout and
 * sets `process.exitCode`, all synchronously. `-v`/`--version` and `-h`/`--help` as the first argument
 * print instead (Claude Code passes no arguments); `--agent codex` (or `claude`) says which client
 * runs the hook, as `rehydrate install --agent codex` registers it. It never calls `process.exit()`, so piped
 * output is flushed, and it never lets an error escape: whatever happens, the process ends with
 * exit 0 and no output unless the handler deliberately replied.
 *
 * @example
 * ```ts
 * // hooks/stop.ts
 * import { runHook } from "./run_hook.ts";
 * import { stopHook } from "../events/stop.ts";
 * runHook("Stop", stopHook);
 * ```
 */
export function runHook<E extends HookEventName>(
  event: E,
  handler: HookHandler<E>,
  options: RunHookOptions<E> = {},
): void {
  const args = options.args ?? process.argv.slice(2);
  if (args[0] === "--version" || args[0] === "-v" || args[0] === "-V") {
    writeFd(1, `${VERSION}\n`);
    return;
  }
  if (args[0] === "--help" || args[0] === "-h") {
    const name = options.name ?? Object.keys(HOOK_NAMES).find((n) => HOOK_NAMES[n] === event) ?? event;
    writeFd(1, hookHelp(name));
    return;
  }
  try {
    let text = options.stdin;
    if (text === undefined) {
      const input = readStdin();
      text = input.ok ? input.text : "";
    }
    const outcome = handleHook(event, handler, text, { input: options.input, host: agentOf(args) });
    if (outcome.stdout) writeFd(1, outcome.stdout);
    process.exitCode = outcome.exitCode;
  } catch {
    process.exitCode = 0;
  }
}

/** The client `--agent <name>` names among `args`, when it names one we know. */
function agentOf(args: readonly string[]): HookHost | undefined {
  const i = args.indexOf("--agent");
  const name = i === -1 ? undefined : args[i + 1];
  return name === "codex" || name === "claude" ? name : undefined;
}
