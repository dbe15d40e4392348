// The workflow parts of PreCompact, gathered for lib/events/pre_compact.ts's handler: the bundle
// the hook binary loads only when they are needed (hooks/pre-compact-workflows.ts) holds them and
// what they import, not the hook itself.
import { projectPreCompact } from "../projects/pre_compact.ts";
import { orchestrationPreCompact } from "../orchestration/checkpoint.ts";
import { roleRereadItems } from "../dispatch/role_items.ts";
import type { PreCompactWorkflows } from "./pre_compact.ts";

/**
 * Every workflow part of PreCompact.
 *
 * @example
 * ```ts
 * runHook("PreCompact", preCompactHandler(() => PRE_COMPACT_WORKFLOWS));
 * ```
 */
export const PRE_COMPACT_WORKFLOWS: PreCompactWorkflows = {
  projectPreCompact,
  orchestrationPreCompact,
  roleRereadItems,
};
