import { escapeXmlAttr } from "./escape_xml_attr.ts";
import { escapeXmlText } from "./escape_xml_text.ts";
import { pushXmlChildren, XML_NODE } from "./_node.ts";
import type { XmlChild, XmlElement, XmlNode } from "./_node.ts";

/** Options for {@linkcode renderXml}. */
export interface RenderXmlOptions {
  /**
   * Pretty printing: a number of spaces or an indent string. Default `""`: no whitespace is added
   * anywhere. Pretty printing only indents elements whose children are all elements; an element
   * with any text or raw child is written compactly, so text content is never altered.
   */
  indent?: number | string;
}

/**
 * Renders a node built by `xmlElement` / `xmlRaw` (or a string, or an array of children) to XML
 * text. Text and attribute values are escaped with `escapeXmlText` / `escapeXmlAttr`, so the
 * output is well-formed whatever they contain, and its element structure is exactly the structure
 * that was built. Empty elements are written self-closing (`<file path="a"/>`).
 *
 * @example
 * ```ts
 * import { xmlElement } from "./xml_element.ts";
 * import { renderXml } from "./render_xml.ts";
 * const doc = xmlElement("state", { mode: "compact" },
 *   xmlElement("task", undefined, "Fix </state> parsing"),
 *   xmlElement("file", { path: "a.ts" }),
 * );
 * renderXml(doc, { indent: 2 });
 * // '<state mode="compact">\n  <task>Fix &lt;/state&gt; parsing</task>\n  <file path="a.ts"/>\n</state>'
 * ```
 */
export function renderXml(node: XmlChild, options?: RenderXmlOptions): string {
  const indentOption = options?.indent ?? "";
  const indent = typeof indentOption === "number" ? " ".repeat(Math.max(0, indentOption)) : indentOption;
  const nodes: XmlNode[] = [];
  pushXmlChildren(nodes, node);
  const out: string[] = [];
  if (indent !== "" && allElements(nodes)) {
    for (let i = 0; i < nodes.length; i++) {
      if (i > 0) out.push("\n");
      renderNode(out, nodes[i], indent, 0);
    }
  } else {
    for (const n of nodes) renderNode(out, n, "", 0);
  }
  return out.join("");
}

function allElements(nodes: readonly XmlNode[]): boolean {
  for (const n of nodes) if (n[XML_NODE] !== "element") return false;
  return true;
}

/** `indent === ""` means compact for this subtree. */
function renderNode(out: string[], node: XmlNode, indent: string, depth: number): void {
  switch (node[XML_NODE]) {
    case "text":
      out.push(escapeXmlText(node.text));
      return;
    case "raw":
      out.push(node.xml);
      return;
    case "element":
      renderElement(out, node, indent, depth);
  }
}

function renderElement(out: string[], el: XmlElement, indent: string, depth: number): void {
  out.push("<", el.name);
  for (const [name, value] of el.attrs) out.push(" ", name, '="', escapeXmlAttr(value), '"');
  const children = el.children;
  if (children.length === 0) {
    out.push("/>");
    return;
  }
  out.push(">");
  if (indent !== "" && allElements(children)) {
    const inner = "\n" + indent.repeat(depth + 1);
    for (const child of children) {
      out.push(inner);
      renderElement(out, child as XmlElement, indent, depth + 1);
    }
    out.push("\n", indent.repeat(depth));
  } else {
    for (const child of children) renderNode(out, child, "", 0);
  }
  out.push("</", el.name, ">");
}
