import type { HookContext } from "../hook/handle_hook.ts";
import { updateSessionRecord } from "../state/session_record.ts";
import { refreshHandlerRegistration } from "./_role.ts";

/**
 * PostToolUse part of the handler/worker workflow: when the session used the
 * Skill tool with the skill named by `dispatch.handlerSkill` (default
 * `handler`; a plugin-qualified `plugin:handler` or a leading `/` count too),
 * registers the session as a handler in `<stateDir>/sessions/<key>.role.json`
 * (owner-only) and marks its session record `handler: true`. Any other tool
 * call returns at once without touching the disk. `dispatch.enabled: false`
 * turns it off. Needs `Skill` in the PostToolUse matcher.
 *
 * @example
 * ```ts
 * export const postToolUseHook: HookHandler<"PostToolUse"> = (ctx) => {
 *   rereadPostToolUse(ctx);
 *   return null;
 * };
 * ```
 */
export function rereadPostToolUse(ctx: HookContext<"PostToolUse">): void {
  const input = ctx.input;
  if (input.tool_name !== "Skill") return;
  const toolInput = input.tool_input as { skill?: unknown } | null | undefined;
  const skill = toolInput && typeof toolInput === "object" && typeof toolInput.skill === "string"
    ? toolInput.skill.trim()
    : "";
  if (skill === "") return;
  const config = ctx.config().dispatch;
  if (config.enabled === false) return;
  const name = skill.startsWith("/") ? skill.slice(1) : skill;
  const wanted = config.handlerSkill;
  if (name !== wanted && !name.endsWith(`:${wanted}`)) return;
  const key = ctx.sessionKey;
  if (key === null) {
    ctx.log("handler registration refused: session id is not a plain id");
    return;
  }
  const dir = ctx.stateDir();
  refreshHandlerRegistration(dir, key, input.session_id, ctx.now, name);
  updateSessionRecord(dir, input.session_id, { handler: true }, { now: ctx.now });
  ctx.log(`registered handler session (skill ${name})`);
}
