import { create } from "xmlbuilder2";

// Reading the XML files the app writes (the EZLynx applicant files), for tests. Node has no XML
// parser of its own and xmlbuilder2's reader mends broken input, so well-formedness is checked
// here, strictly, before the document is read: one root, every tag closed in order, attribute
// values quoted, `<` never in text, `&` only as one of XML's five entities or a character
// reference, no control characters.

const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const NAME = "[A-Za-z_][\\w.:-]*";
const TOKEN = new RegExp(
  [
    "<!--(?:(?!--)[\\s\\S])*-->",
    "<\\?[\\s\\S]*?\\?>",
    `</(${NAME})\\s*>`,
    `<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`,
    "[^<]+",
  ].join("|"),
  "y",
);

/** Why `xml` is not a well-formed XML document, or null when it is. */
export function wellFormedProblem(xml: string): string | null {
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml)) return "a control character";
  const stack: string[] = [];
  let roots = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < xml.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(xml);
    if (!match) return `unreadable markup at ${at}: ${JSON.stringify(xml.slice(at, at + 30))}`;
    const [token, closing, opening, attributes = "", selfClosing] = match;
    if (closing) {
      if (stack.pop() !== closing) return `</${closing}> closes nothing open at ${at}`;
    } else if (opening) {
      if (attributes.replace(ENTITY, "").includes("&")) return `a bare & in an attribute at ${at}`;
      if (stack.length === 0 && ++roots > 1) return `a second root element at ${at}`;
      if (!selfClosing) stack.push(opening);
    } else if (!token.startsWith("<")) {
      if (token.replace(ENTITY, "").includes("&")) return `a bare & in text at ${at}`;
      if (token.includes("]]>")) return `]]> in text at ${at}`;
      if (stack.length === 0 && token.trim()) return `text outside the root at ${at}`;
    }
  }
  if (stack.length > 0) return `<${stack.at(-1)}> is never closed`;
  return roots === 1 ? null : "no root element";
}

/** The part of the DOM xmlbuilder2's reader gives that the tests read. */
type XmlElement = {
  nodeType: number;
  localName: string;
  namespaceURI: string | null;
  textContent: string | null;
  childNodes: ArrayLike<XmlElement>;
  getAttribute(name: string): string | null;
};

const elementsOf = (node: XmlElement): XmlElement[] => Array.from(node.childNodes).filter((n) => n.nodeType === 1);

/** A read-only view of one element: its name, text, attributes and child elements in order. */
export type Element = {
  name: string;
  namespace: string | null;
  text: string;
  attr(name: string): string | null;
  /** The names of the child elements, in document order. */
  childNames(): string[];
  /** Every child element of that name. */
  all(name: string): Element[];
  /** The element at a path of child names ("Applicant/PersonalInfo/Name/FirstName"); throws when absent. */
  at(path: string): Element;
  /** Whether the path names an element. */
  has(path: string): boolean;
};

function wrap(node: XmlElement): Element {
  const find = (path: string): Element | null => {
    let current: Element | null = view;
    for (const part of path.split("/")) {
      current = current?.all(part)[0] ?? null;
      if (!current) return null;
    }
    return current;
  };
  const view: Element = {
    name: node.localName,
    namespace: node.namespaceURI,
    text: node.textContent ?? "",
    attr: (name) => node.getAttribute(name),
    childNames: () => elementsOf(node).map((n) => n.localName),
    all: (name) =>
      elementsOf(node)
        .filter((n) => n.localName === name)
        .map(wrap),
    at: (path) => {
      const found = find(path);
      if (!found) throw new Error(`no element at ${view.name}/${path}`);
      return found;
    },
    has: (path) => find(path) !== null,
  };
  return view;
}

/** The document's root element; throws (with the reason) when the text is not well-formed XML. */
export function readXml(xml: string): Element {
  const problem = wellFormedProblem(xml);
  if (problem) throw new Error(`not well-formed XML: ${problem}`);
  return wrap(create(xml).root().node as unknown as XmlElement);
}
