import type { HookEventName } from "./hook_types.ts";
import { type HookHandler, handleHook } from "./handle_hook.ts";
import { readStdin } from "./read_stdin.ts";
import { hookHelp } from "./hook_help.ts";
import { HOOK_NAMES } from "./hook_names.ts";
import { VERSION } from "./version.ts";
import { writeFd } from "../node/write_fd.ts";

/**
 * The whole body of a hook entry: reads stdin to EOF (16 MiB cap; `options.stdin` when the entry
 * has read it already), runs the
 * handler through {@linkcode handleHook}, writes its stdout and sets
 * `process.exitCode`. `--version` and `--help` as the first argument print
 * instead (Claude Code passes no arguments). It never calls `process.exit()`, so piped output is
 * flushed, and it never lets an error escape: whatever happens, the process
 * ends with exit 0 and no output unless the handler deliberately replied.
 *
 * @example
 * ```ts
 * // hooks/stop.ts
 * import { runHook } from "./run_hook.ts";
 * import { stopHook } from "../events/stop.ts";
 * await runHook("Stop", stopHook);
 * ```
 */
export async function runHook(
  event: HookEventName,
  handler: HookHandler,
  options: { args?: string[]; stdin?: string } = {},
): Promise<void> {
  const args = options.args ?? process.argv.slice(2);
  if (args[0] === "--version" || args[0] === "-V") {
    writeFd(1, `${VERSION}\n`);
    return;
  }
  if (args[0] === "--help" || args[0] === "-h") {
    const name = Object.keys(HOOK_NAMES).find((n) => HOOK_NAMES[n] === event) ?? event;
    writeFd(1, hookHelp(name));
    return;
  }
  try {
    let text = options.stdin;
    if (text === undefined) {
      const input = readStdin();
      text = input.ok ? input.text : "";
    }
    const outcome = await handleHook(event, handler, text);
    if (outcome.stdout) writeFd(1, outcome.stdout);
    process.exitCode = outcome.exitCode;
  } catch {
    process.exitCode = 0;
  }
}
