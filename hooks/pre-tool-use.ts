// The PreToolUse hook binary (dist/pre-tool-use). Thin entry: all logic is in lib/pre_tool_use_hook.ts.
import { runHook } from "../lib/run_hook.ts";
import { preToolUseHook } from "../lib/pre_tool_use_hook.ts";

void runHook("PreToolUse", preToolUseHook);
