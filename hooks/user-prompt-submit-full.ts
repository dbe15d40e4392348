// The full UserPromptSubmit hook: loaded by hooks/user-prompt-submit.ts (never run on its own)
// when the prompt is not one the fast path can answer. All logic is in lib/events/user_prompt_submit.ts.
import type { UserPromptSubmitInput } from "../lib/hook/hook_types.ts";
import { runHook } from "../lib/hook/run_hook.ts";
import { userPromptSubmitHook } from "../lib/events/user_prompt_submit.ts";

/**
 * Runs the hook on stdin already read (`null`: read it here, as for `--help`), with the entry's
 * arguments and the input the fast path parsed from it, if it got that far.
 */
export function runFull(stdin: string | null, args: string[], input?: UserPromptSubmitInput): void {
  runHook("UserPromptSubmit", userPromptSubmitHook, { args, stdin: stdin ?? undefined, input });
}
