import { XML_NODE } from "./_node.ts";
import type { XmlRaw } from "./_node.ts";

export type { XmlRaw } from "./_node.ts";

/**
 * Marks a trusted, already well-formed markup fragment to be rendered verbatim by `renderXml`.
 *
 * This is the only way to put unescaped text into a document. Never pass anything that came
 * from a file, a transcript or the user: use a plain string child for that, which is escaped.
 * The pretty printer treats a raw fragment like text (it adds no whitespace around it).
 *
 * @example
 * ```ts
 * import { xmlRaw } from "./xml_raw.ts";
 * import { xmlElement } from "./xml_element.ts";
 * import { renderXml } from "./render_xml.ts";
 * renderXml(xmlElement("a", {}, xmlRaw("<!-- generated -->")));
 * // "<a><!-- generated --></a>"
 * ```
 */
export function xmlRaw(xml: string): XmlRaw {
  if (typeof xml !== "string") throw new TypeError("Invalid raw XML: expected a string");
  return { [XML_NODE]: "raw", xml };
}
