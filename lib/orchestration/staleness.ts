import { isAbsolute, resolve } from "../node/path.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { readOrchestrationResumption } from "./resumption.ts";
import { xmlElement } from "../xml/xml_element.ts";
import { renderXml } from "../xml/render_xml.ts";
import { listCheckpoints } from "./checkpoints.ts";
import { clip } from "./format.ts";
import { isOrchestrationFile } from "./paths.ts";
import { orchRuntime } from "./_runtime.ts";
import { checkStaleness } from "./_stale.ts";
import { readProjectFile } from "../state/read_project_file.ts";

const WRITERS = new Set(["Write", "Edit", "MultiEdit"]);
const MAX_BYTES = 1024 * 1024;
/** Most characters of the warning. */
const WARNING_MAX = 900;

/**
 * PostToolUse for orchestration runs (docs/orchestration.md, "The staleness check"): after a Write,
 * Edit or MultiEdit of a run's ORCHESTRATION.yaml, checks that the `resumption` section is current:
 * its `updated_at` is not older than the current phase's start or the run's newest checkpoint, it
 * agrees with the phases and quality gates, and the write moved `updated_at` if it changed the run
 * (the content before the write comes from the tool response, or is rebuilt from the edit). Returns
 * a short `<resumption-stale>` warning naming the fields to update, or `null` when the section is
 * fresh, the file is not a run's ORCHESTRATION.yaml, or the layout is absent.
 *
 * @example
 * ```ts
 * import { orchestrationPostToolUse } from "./staleness.ts";
 *
 * const text = orchestrationPostToolUse(ctx);
 * if (text) return { json: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: text } } };
 * ```
 */
export function orchestrationPostToolUse(ctx: HookContext<"PostToolUse">): string | null {
  const input = ctx.input;
  if (typeof input.tool_name !== "string" || !WRITERS.has(input.tool_name)) return null;
  const toolInput = record(input.tool_input);
  const filePath = typeof toolInput.file_path === "string" ? toolInput.file_path : null;
  if (filePath === null || !isOrchestrationFile(filePath)) return null;
  const rt = orchRuntime(ctx, { transcript: false });
  if (rt === null) return null;
  const absolute = resolve(isAbsolute(filePath) ? filePath : resolve(ctx.projectDir, filePath));
  const run = rt.layout.runs.find((r) => resolve(r.path) === absolute);
  if (run === undefined) return null;

  const read = readProjectFile(ctx.projectDir, run.path, { maxBytes: MAX_BYTES });
  const text: string | null = read.ok ? read.text : null;
  const state = readOrchestrationResumption(
    run.path,
    text === null ? { maxBytes: MAX_BYTES } : { text, maxBytes: MAX_BYTES },
  );
  const before = previousText(input.tool_name, toolInput, record(input.tool_response), text);
  const previous = before === null ? null : readOrchestrationResumption(run.path, { text: before });
  let newest: { id: string; createdAt: string } | null = null;
  for (const e of listCheckpoints(rt.paths.checkpointsDir)) {
    if (e.data !== null && e.data.orchestration_file === run.relPath) {
      newest = { id: e.id, createdAt: e.data.created_at };
    }
  }
  const report = checkStaleness(state, { newestCheckpoint: newest, previous });
  if (report.status === "FRESH") return null;
  const body = state.status !== "ok"
    ? `${run.relPath} no longer parses as the hooks read it (${
      clip(report.reasons.join("; "), 200)
    }). Fix it so the resumption section can be read after a compaction.`
    : `The resumption section of ${run.relPath} is ${report.status}: ${clip(report.reasons.join("; "), 400)}. Update ${
      clip(report.fields.join(", "), 300)
    }, with resumption.updated_at set to the current time.`;
  return renderXml(xmlElement("resumption-stale", { file: clip(run.relPath, 200) }, clip(body, WARNING_MAX)));
}

/** The file's content before this write, when the tool response or the edit tells it. */
function previousText(
  tool: string,
  toolInput: Record<string, unknown>,
  response: Record<string, unknown>,
  now: string | null,
): string | null {
  if (typeof response.originalFile === "string") return response.originalFile;
  if (tool === "Write") return response.type === "create" ? "" : null;
  if (now === null) return null;
  const edits = tool === "MultiEdit" && Array.isArray(toolInput.edits) ? toolInput.edits.map(record) : [toolInput];
  let text = now;
  for (let i = edits.length - 1; i >= 0; i--) {
    const e = edits[i];
    if (typeof e.old_string !== "string" || typeof e.new_string !== "string" || e.new_string === "") return null;
    if (!text.includes(e.new_string)) return null;
    text = e.replace_all === true
      ? text.split(e.new_string).join(e.old_string)
      : text.replace(e.new_string, () => e.old_string as string);
  }
  return text;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
}
