// The PostModelSwitch hook binary (dist/post-model-switch). Thin entry: all logic is in lib/events/post_model_switch.ts.
import { runHook } from "../lib/hook/run_hook.ts";
import { postModelSwitchHook } from "../lib/events/post_model_switch.ts";

runHook("PostModelSwitch", postModelSwitchHook);
