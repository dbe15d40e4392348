/**
 * Private helpers of the session layer: one element of ours built within a budget, section by
 * section, from items taken in order of importance and shown in document order; and the items'
 * own markup (requests, tasks, files), every text redacted and escaped.
 *
 * @module
 */
import { redact } from "../redact/redact.ts";
import { cutMiddle } from "../redact/cut_middle.ts";
import { cutText } from "../redact/quote_line.ts";
import { renderXml } from "../xml/render_xml.ts";
import { type XmlAttrs, type XmlAttrValue, type XmlChild, xmlElement } from "../xml/xml_element.ts";
import { xmlRaw } from "../xml/xml_raw.ts";
import { isOpenTask, type SessionTask } from "./tasks.ts";

/** Smallest useful cut of a quoted text; below it the item is left out rather than shrunk. */
export const MIN_TEXT = 120;

/** Builds one element within a budget. */
export interface ElementBuilder {
  /**
   * Takes `xml` into section `name` when it fits, with the section's tags the first time; false
   * when it does not. With `name` null, `xml` is a child of the element itself, placed at `order`
   * among the sections (section `i` of `sections` sits at `i`; a fraction places it between).
   */
  take(name: string | null, order: number, xml: string): boolean;
  /** Takes `render(cap)`, cutting its text further while it does not fit, down to {@linkcode MIN_TEXT}. */
  takeCut(name: string | null, order: number, cap: number, render: (cap: number) => string): boolean;
  /** How many items section `name` holds so far. */
  count(name: string): number;
  /** The element, its sections in the order they were declared; "" when nothing was taken. */
  finish(): string;
}

/**
 * An element `<tag attrs>` opening with `note` (one sentence of ours), within `max` characters,
 * with `sections` in document order (each `[name, attrs(shown)]`: its attributes for the number of
 * items it shows). Returns null when even the note does not fit.
 *
 * @example
 * ```ts
 * const b = elementBuilder("session-context", { source: "rehydrate" }, "Quoted data.", [["user-requests", () => ({})]], 500)!;
 * b.take("user-requests", 0, "<request>fix it</request>");
 * b.finish(); // '<session-context source="rehydrate">\nQuoted data.\n<user-requests>\n<request>fix it</request>\n</user-requests>\n</session-context>'
 * ```
 */
export function elementBuilder(
  tag: string,
  attrs: XmlAttrs,
  note: string,
  sections: readonly (readonly [string, (shown: number) => XmlAttrs])[],
  max: number,
): ElementBuilder | null {
  const open = renderXml(xmlElement(tag, attrs)).slice(0, -2) + ">\n" + note;
  const close = `\n</${tag}>`;
  let left = max - open.length - close.length;
  if (left < 0) return null;
  const wrappers = new Map(sections);
  const parts = new Map<string, { order: number; xml: string }[]>();
  const loose: { order: number; xml: string }[] = [];
  const cost = (name: string | null, xml: string) => {
    if (name === null) return xml.length + 1;
    const held = parts.get(name)?.length ?? 0;
    return xml.length + 1 + (held === 0 ? wrapperCost(name, wrappers.get(name) ?? (() => ({}))) : 0);
  };
  const take = (name: string | null, order: number, xml: string): boolean => {
    const c = cost(name, xml);
    if (c > left) return false;
    left -= c;
    if (name === null) loose.push({ order, xml });
    else {
      const list = parts.get(name) ?? [];
      list.push({ order, xml });
      parts.set(name, list);
    }
    return true;
  };
  return {
    take,
    takeCut(name, order, cap, render): boolean {
      let c = cap;
      while (c >= MIN_TEXT) {
        const xml = render(c);
        const over = cost(name, xml) - left;
        if (over <= 0) return take(name, order, xml);
        c -= Math.max(16, over);
      }
      return false;
    },
    count: (name) => parts.get(name)?.length ?? 0,
    finish(): string {
      // A section sits at its place in `sections`; a loose child at its `order` among them.
      const placed: { at: number; xml: string }[] = [];
      sections.forEach(([name, attrsOf], at) => {
        const list = parts.get(name);
        if (list === undefined || list.length === 0) return;
        const inner = list.sort((a, b) => a.order - b.order).map((p) => p.xml).join("\n");
        placed.push({ at, xml: renderXml(xmlElement(name, attrsOf(list.length), xmlRaw("\n" + inner + "\n"))) });
      });
      for (const p of loose) placed.push({ at: p.order, xml: p.xml });
      const body = placed.sort((a, b) => a.at - b.at).map((p) => p.xml);
      if (body.length === 0) return "";
      const out = open + "\n" + body.join("\n") + close;
      // The costs above are exact or larger; this only guards the guarantee.
      return out.length <= max ? out : "";
    },
  };
}

/** Characters a section adds besides its items' own (and one newline each): its tags at the largest counts. */
function wrapperCost(name: string, attrs: (shown: number) => XmlAttrs): number {
  const widest: Record<string, XmlAttrValue> = { ...attrs(0) };
  for (const key of Object.keys(widest)) if (typeof widest[key] === "number") widest[key] = 9_999_999;
  widest.shown = 9_999_999;
  return renderXml(xmlElement(name, widest, xmlRaw("\n\n"))).length + 1;
}

/**
 * One `<request>`: the text redacted, its head and tail kept within `cap`; `truncated="true"`
 * when anything was cut.
 *
 * @example
 * ```ts
 * requestXml("fix the login bug", false, 1000, { latest: "true" }); // '<request latest="true">fix the login bug</request>'
 * ```
 */
export function requestXml(text: string, truncated: boolean, cap: number, attrs: XmlAttrs = {}): string {
  const clean = redact(text);
  const cut = cutMiddle(clean, cap);
  return renderXml(
    xmlElement("request", { ...attrs, truncated: truncated || cut !== clean ? "true" : undefined }, cut),
  );
}

/**
 * One `<task>`: its subject, and for an open task its description when asked.
 *
 * @example
 * ```ts
 * taskXml({ source: "task", id: "2", status: "pending", subject: "Add the test" }, { subject: 300, description: 600 }, true);
 * // '<task id="2" status="pending"><subject>Add the test</subject></task>'
 * ```
 */
export function taskXml(
  t: SessionTask,
  caps: { subject: number; description: number },
  withDescription: boolean,
  attrs: XmlAttrs = {},
): string {
  const children: XmlChild[] = [
    xmlElement("subject", null, t.subject === "" ? "(not recorded)" : cutText(redact(t.subject), caps.subject)),
  ];
  if (withDescription && t.description !== undefined && isOpenTask(t)) {
    children.push(xmlElement("description", null, cutText(redact(t.description), caps.description)));
  }
  return renderXml(xmlElement("task", {
    id: t.id,
    status: t.status,
    "blocked-by": isOpenTask(t) && t.blocked_by !== undefined && t.blocked_by.length > 0
      ? t.blocked_by.join(",")
      : undefined,
    ...attrs,
  }, ...children));
}

/**
 * One `<file path="…">`, the path redacted.
 *
 * @example
 * ```ts
 * fileXml("src/a.ts", { created: "true" }); // '<file path="src/a.ts" created="true"/>'
 * ```
 */
export function fileXml(path: string, attrs: XmlAttrs = {}): string {
  return renderXml(xmlElement("file", { path: redact(path), ...attrs }));
}
