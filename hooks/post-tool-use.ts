// The PostToolUse hook binary (dist/post-tool-use). Thin entry: all logic is in lib/events/post_tool_use.ts.
import { runHook } from "../lib/hook/run_hook.ts";
import { postToolUseHook } from "../lib/events/post_tool_use.ts";

runHook("PostToolUse", postToolUseHook);
