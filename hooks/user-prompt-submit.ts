// The UserPromptSubmit hook binary (dist/user-prompt-submit). Thin entry: all logic is in lib/user_prompt_submit_hook.ts.
import { runHook } from "../lib/run_hook.ts";
import { userPromptSubmitHook } from "../lib/user_prompt_submit_hook.ts";

void runHook("UserPromptSubmit", userPromptSubmitHook);
