import type { HookContext } from "../hook/handle_hook.ts";
import { dispatchActiveFiles } from "./active_files.ts";
import { dispatchFile } from "./dispatch_file.ts";
import { redact } from "../redact/redact.ts";
import { escapeXmlText } from "../xml/escape_xml_text.ts";
import { sessionRole } from "./session_role.ts";

/** Options for {@linkcode dispatchSessionStart}. */
export interface DispatchSessionStartOptions {
  /** One or two lines instead of the pointer with progress: the UserPromptSubmit re-delivery. Default false. */
  short?: boolean;
  /** Most progress entries quoted. Default 5. */
  progressLines?: number;
  /** Most characters returned. Default 2000. */
  maxChars?: number;
}

/**
 * The context a handler or worker session gets after compaction, as plain
 * text (redacted), or null for a regular session. A worker gets the dispatch
 * file pointer: the file's path, title and status, that it holds the
 * contract and the `## Progress` section, and the latest progress entries.
 * A handler gets its state file and its active dispatch files with their
 * statuses. The full text is for SessionStart(compact); `short: true` is the
 * UserPromptSubmit re-delivery. It does not decide whether to deliver: gate
 * it with `pendingDelivery`/`recordDelivery`.
 *
 * @example
 * ```ts
 * const text = dispatchSessionStart(ctx);
 * // "This is a worker session. Your dispatch file is /home/a/dispatch/fix-login.md (Fix login, status in-progress) …"
 * ```
 */
export function dispatchSessionStart(ctx: HookContext, options: DispatchSessionStartOptions = {}): string | null {
  const role = sessionRole(ctx);
  if (role.role === "regular") return null;
  const maxChars = options.maxChars ?? 2000;
  let text: string;
  if (role.role === "worker") {
    const d = dispatchFile(role.dispatchFile);
    const about = [d?.title, d?.status ? `status ${d.status}` : null].filter((x) => x).join(", ");
    text = `This is a worker session. Your dispatch file is ${role.dispatchFile}${about ? ` (${about})` : ""}: ` +
      "it holds your contract and the ## Progress section. Re-read it with the Read tool before continuing, " +
      "and keep recording each milestone under ## Progress.";
    if (!options.short && d && d.progress.length > 0) {
      const n = options.progressLines ?? 5;
      const recent = d.progress.slice(-n);
      text += `\nLatest progress${d.progress.length > n ? ` (last ${n} of ${d.progress.length})` : ""}:`;
      for (const line of recent) text += `\n${line.length > 300 ? line.slice(0, 300) + "…" : line}`;
    }
  } else {
    const { stateFile, dispatches } = dispatchActiveFiles(ctx);
    const files = [stateFile, ...dispatches.map((d) => d.path)].filter((f): f is string => f !== null);
    text = "This is the handler session. Re-read your handler state and the active dispatch files with the Read tool " +
      `before continuing${files.length === 0 ? "." : options.short ? `: ${files.join(", ")}` : ":"}`;
    if (!options.short) {
      if (stateFile !== null) text += `\n- ${stateFile} (handler state)`;
      for (const d of dispatches) text += `\n- ${d.path} (${d.title ? `${d.title}, ` : ""}status ${d.status})`;
    }
  }
  // The text sits next to the <nexus-context> XML in one additionalContext: a dispatch file's
  // title or progress line holding `</nexus-context>` or a fake element must stay data.
  text = escapeXmlText(redact(text));
  if (text.length > maxChars) {
    let cut = maxChars - 1;
    const amp = text.lastIndexOf("&", cut);
    if (amp !== -1 && text.indexOf(";", amp) >= cut) cut = amp;
    text = text.slice(0, cut) + "…";
  }
  return text;
}
