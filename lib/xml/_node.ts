/**
 * Private helper of the XML builder (`lib/xml/xml_element.ts`, `lib/xml/xml_raw.ts`, `lib/xml/render_xml.ts`): the node
 * types and the brand that marks a node as built by those functions.
 *
 * Only branded nodes render, so element names are always validated (by `xmlElement`) and raw
 * markup can only come from an explicit `xmlRaw()` call, never from a look-alike object that
 * arrived from JSON.
 */

/** Brand carried by every node built by `xmlElement`, `xmlRaw` or from a text child. */
export const XML_NODE: unique symbol = Symbol("rehydrate.xmlNode");

/** An element: a validated name, attributes in insertion order, and its children. */
export interface XmlElement {
  readonly [XML_NODE]: "element";
  readonly name: string;
  /** `[name, value]` pairs; values are unescaped, escaping happens when rendering. */
  readonly attrs: readonly (readonly [string, string])[];
  readonly children: readonly XmlNode[];
}

/** Character data; escaped when rendered. */
export interface XmlText {
  readonly [XML_NODE]: "text";
  readonly text: string;
}

/** A trusted markup fragment, rendered verbatim. Made only by `xmlRaw()`. */
export interface XmlRaw {
  readonly [XML_NODE]: "raw";
  readonly xml: string;
}

/** Any node the renderer accepts. */
export type XmlNode = XmlElement | XmlText | XmlRaw;

/**
 * What may be passed as a child: a node, a string or number (rendered as escaped text), an
 * array of children (flattened), or `null`, `undefined`, `true`, `false` (skipped, so
 * `cond && xmlElement(...)` works).
 */
export type XmlChild = XmlNode | string | number | boolean | null | undefined | readonly XmlChild[];

// XML Name restricted to ASCII, with at most one prefix: every name comes from our own code, so
// anything else is a programming error worth failing loudly on.
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*(?::[A-Za-z_][A-Za-z0-9_.-]*)?$/;

/** Throws a `TypeError` unless `name` is a valid element or attribute name. */
export function assertXmlName(name: string, what: "element" | "attribute"): void {
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new TypeError(`Invalid XML ${what} name: ${JSON.stringify(name)}`);
  }
}

/** True when `value` is a node built by the XML builder functions. */
export function isXmlNode(value: unknown): value is XmlNode {
  return typeof value === "object" && value !== null && XML_NODE in value;
}

/** Appends the flattened children to `out`, turning strings and numbers into text nodes. */
export function pushXmlChildren(out: XmlNode[], child: XmlChild): void {
  if (child === null || child === undefined || typeof child === "boolean") return;
  if (typeof child === "string") {
    if (child !== "") out.push({ [XML_NODE]: "text", text: child });
    return;
  }
  if (typeof child === "number") {
    out.push({ [XML_NODE]: "text", text: String(child) });
    return;
  }
  if (Array.isArray(child)) {
    for (const c of child as readonly XmlChild[]) pushXmlChildren(out, c);
    return;
  }
  if (isXmlNode(child)) {
    out.push(child);
    return;
  }
  throw new TypeError("Invalid XML child: expected a node from xmlElement() or xmlRaw(), a string or a number");
}
