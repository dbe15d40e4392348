// The PreToolUse hook binary (dist/pre-tool-use). Thin entry: all logic is in lib/events/pre_tool_use.ts.
import { runHook } from "../lib/hook/run_hook.ts";
import { preToolUseHook } from "../lib/events/pre_tool_use.ts";

runHook("PreToolUse", preToolUseHook);
