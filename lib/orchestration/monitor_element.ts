// The context monitor's level and its short `<context-monitor>` element: shared by the full
// UserPromptSubmit hook (lib/orchestration/monitor.ts) and the usual prompt's fast path
// (lib/events/quiet_prompt.ts), which must print exactly what the full hook would.
import { percent } from "./format.ts";
import { escapeXmlAttr } from "../xml/escape_xml_attr.ts";

/** The monitor's levels, lowest first. */
export type MonitorLevel = "NOMINAL" | "WARNING" | "CRITICAL" | "COMPACTION";

/** The level of a fill fraction (null: unknown, which counts as nominal). */
export function monitorLevel(
  fraction: number | null,
  t: { warning: number; critical: number; compaction: number },
): MonitorLevel {
  return fraction === null || fraction < t.warning
    ? "NOMINAL"
    : fraction < t.critical
    ? "WARNING"
    : fraction < t.compaction
    ? "CRITICAL"
    : "COMPACTION";
}

/** The element's attributes: level, fill %, tokens, window and the resumption section's status. */
export function monitorAttrs(
  level: Exclude<MonitorLevel, "NOMINAL">,
  fraction: number | null,
  tokens: number | null,
  window: number,
  status: string,
): Record<string, string | number | null> {
  return { level, fill: fraction === null ? null : `${percent(fraction)}%`, tokens, window, resumption: status };
}

/**
 * The element without text: what every prompt gets once the level's full reminders are used up.
 * Written out directly, not through `xmlElement` and `renderXml` (the same text, and cheaper on the
 * usual prompt: bench/README.md): the names are fixed and the values escaped.
 */
export function shortMonitorElement(attrs: Record<string, string | number | null>): string {
  let out = "<context-monitor";
  for (const name in attrs) {
    const value = attrs[name];
    if (value !== null) out += ` ${name}="${typeof value === "number" ? value : escapeXmlAttr(value)}"`;
  }
  return out + "/>";
}
