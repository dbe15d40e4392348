import { assertXmlName, pushXmlChildren, XML_NODE } from "./_node.ts";
import type { XmlChild, XmlElement, XmlNode } from "./_node.ts";

export type { XmlChild, XmlElement, XmlNode } from "./_node.ts";

/** An attribute value: strings and numbers are stringified, `null` and `undefined` omit it. */
export type XmlAttrValue = string | number | boolean | null | undefined;

/** Attributes of an element, rendered in insertion order. */
export type XmlAttrs = Readonly<Record<string, XmlAttrValue>>;

/**
 * Builds an XML element node; render it with `renderXml`.
 *
 * Names come from our own code, so an invalid element or attribute name (anything but an ASCII
 * XML name with at most one `prefix:`) throws a `TypeError`. Attribute values and text children
 * are untrusted data: they are stored as given and always escaped when rendered, so a value such
 * as `</nexus-context>` can never change the structure of the document. Attributes whose value
 * is `null` or `undefined` are left out; booleans render as `"true"` / `"false"`.
 *
 * @example
 * ```ts
 * import { xmlElement } from "./xml_element.ts";
 * import { renderXml } from "./render_xml.ts";
 * const doc = xmlElement("nexus-context", { version: "v4", mode: "compact" },
 *   xmlElement("file", { path: "src/a.ts", action: "read" }),
 *   xmlElement("note", undefined, "x < y"),
 * );
 * renderXml(doc);
 * // '<nexus-context version="v4" mode="compact"><file path="src/a.ts" action="read"/><note>x &lt; y</note></nexus-context>'
 * ```
 */
export function xmlElement(name: string, attrs?: XmlAttrs | null, ...children: XmlChild[]): XmlElement {
  assertXmlName(name, "element");
  const pairs: (readonly [string, string])[] = [];
  if (attrs) {
    for (const key of Object.keys(attrs)) {
      const value = attrs[key];
      if (value === null || value === undefined) continue;
      assertXmlName(key, "attribute");
      pairs.push([key, typeof value === "string" ? value : String(value)]);
    }
  }
  const nodes: XmlNode[] = [];
  pushXmlChildren(nodes, children);
  return { [XML_NODE]: "element", name, attrs: pairs, children: nodes };
}
