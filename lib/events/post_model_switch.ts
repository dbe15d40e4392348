import type { HookHandler } from "../hook/handle_hook.ts";
import type { PostModelSwitchInput } from "../hook/hook_types.ts";
import { updateSessionRecord } from "../state/session_record.ts";

/** A model id or alias as clients write them (`claude-sonnet-4-6`, `opus[1m]`, `us.anthropic.…:0`). */
const MODEL = /^[\w.:@/\-]{1,200}(?:\[1m\])?$/i;
const ONE_MILLION = /\[1m\]$/i;

/**
 * PostModelSwitch (Claude Code 2.1.3xx): the session's model changed mid-session (`/model`, the
 * picker, the SDK, a fallback), and with it perhaps the context window. Writes the new model into
 * the session record (`<stateDir>/sessions/<key>.json`, `model`), where SessionStart puts the
 * model it is told and the everyday fill warning reads it: the next prompt measures the fill
 * against the new window, not the one the session started with (a switch from a 1M model to a
 * 200,000-token one would otherwise leave the warning silent until the client compacts). The
 * client's `to_model` is an API id without the `[1m]` marker; when `requested_model` carries it,
 * the marker is kept. Prints nothing; a missing or odd model changes nothing.
 *
 * @example
 * ```ts
 * runHook("PostModelSwitch", postModelSwitchHook);
 * ```
 */
export const postModelSwitchHook: HookHandler<"PostModelSwitch"> = (ctx) => {
  const model = switchedModel(ctx.input);
  if (model === null) {
    ctx.log("model switch: no usable to_model");
    return null;
  }
  const record = updateSessionRecord(ctx.stateDir(), ctx.input.session_id, { model }, { now: ctx.now });
  ctx.log(record ? `model switch: now ${model}` : "model switch: the session id is not a plain id");
  return null;
};

function switchedModel(input: PostModelSwitchInput): string | null {
  const to = input.to_model;
  if (typeof to !== "string" || !MODEL.test(to)) return null;
  const requested = input.requested_model;
  const extended = typeof requested === "string" && MODEL.test(requested) && ONE_MILLION.test(requested);
  return extended && !ONE_MILLION.test(to) ? `${to}[1m]` : to;
}
