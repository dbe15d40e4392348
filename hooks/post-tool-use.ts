// The PostToolUse hook binary (dist/post-tool-use). Thin entry: all logic is in lib/post_tool_use_hook.ts.
import { runHook } from "../lib/run_hook.ts";
import { postToolUseHook } from "../lib/post_tool_use_hook.ts";

void runHook("PostToolUse", postToolUseHook);
