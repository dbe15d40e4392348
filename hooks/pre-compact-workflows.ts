// The workflow parts of PreCompact (projects, orchestration, dispatch files): loaded by
// hooks/pre-compact.ts (never run on its own) only when a layout or a dispatch role asks for them.
// build.ts embeds it as a bundle of its own.
export { PRE_COMPACT_WORKFLOWS as workflows } from "../lib/events/pre_compact_workflows.ts";
