/**
 * A small strict XML 1.0 reader for tests: throws on anything not well-formed (unbalanced or
 * crossed tags, unquoted or duplicate attributes, a raw '<' or '&' in text, unknown entities,
 * characters XML forbids, more than one root) and returns the element tree with decoded text.
 * Enough to check our RSS documents without a dependency; DTDs and processing instructions other
 * than the XML declaration are refused.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The decoded character data directly inside this element. */
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/;
const INVALID_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function decodeEntities(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`raw '<' in ${where}`);
  return raw.replace(/&([^;]*);?/g, (match, body: string) => {
    if (!match.endsWith(';')) throw new Error(`unterminated entity in ${where}: ${match}`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (body in named) return named[body] as string;
    const num = /^#(?:x([0-9a-fA-F]+)|(\d+))$/.exec(body);
    if (num) return String.fromCodePoint(num[1] ? parseInt(num[1], 16) : Number(num[2]));
    throw new Error(`unknown entity &${body}; in ${where}`);
  });
}

export function parseXml(xml: string): XmlElement {
  if (INVALID_CHAR.test(xml)) throw new Error('document contains a character XML forbids');
  let pos = 0;
  const rest = () => xml.slice(pos);
  const skipSpace = () => {
    while (pos < xml.length && /\s/.test(xml[pos] as string)) pos += 1;
  };

  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) throw new Error('unterminated XML declaration');
    if (!/^<\?xml\s+version="1\.[0-9]"(\s+encoding="[A-Za-z][\w.-]*")?(\s+standalone="(yes|no)")?\s*\?>$/.test(xml.slice(0, end + 2))) {
      throw new Error('malformed XML declaration');
    }
    pos = end + 2;
  }

  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (rest().startsWith('<!--')) {
        const end = xml.indexOf('-->', pos);
        if (end < 0) throw new Error('unterminated comment');
        pos = end + 3;
      } else return;
    }
  };

  function parseElement(): XmlElement {
    if (xml[pos] !== '<') throw new Error(`expected '<' at ${pos}`);
    pos += 1;
    const name = NAME.exec(rest())?.[0];
    if (!name) throw new Error(`bad element name at ${pos}`);
    pos += name.length;
    const el: XmlElement = { name, attributes: {}, children: [], text: '' };
    for (;;) {
      const before = pos;
      skipSpace();
      if (rest().startsWith('/>')) {
        pos += 2;
        return el;
      }
      if (xml[pos] === '>') {
        pos += 1;
        break;
      }
      if (pos === before) throw new Error(`expected whitespace before an attribute of <${name}> at ${pos}`);
      const attr = NAME.exec(rest())?.[0];
      if (!attr) throw new Error(`bad attribute in <${name}> at ${pos}`);
      pos += attr.length;
      skipSpace();
      if (xml[pos] !== '=') throw new Error(`attribute ${attr} of <${name}> has no value`);
      pos += 1;
      skipSpace();
      const quote = xml[pos];
      if (quote !== '"' && quote !== "'") throw new Error(`attribute ${attr} of <${name}> is not quoted`);
      const end = xml.indexOf(quote, pos + 1);
      if (end < 0) throw new Error(`unterminated attribute ${attr}`);
      if (attr in el.attributes) throw new Error(`duplicate attribute ${attr} in <${name}>`);
      el.attributes[attr] = decodeEntities(xml.slice(pos + 1, end), `attribute ${attr}`);
      pos = end + 1;
    }
    for (;;) {
      const next = xml.indexOf('<', pos);
      if (next < 0) throw new Error(`<${name}> is never closed`);
      const raw = xml.slice(pos, next);
      if (raw.includes(']]>')) throw new Error(`']]>' in the text of <${name}>`);
      el.text += decodeEntities(raw, `text of <${name}>`);
      pos = next;
      if (rest().startsWith('</')) {
        pos += 2;
        const closing = NAME.exec(rest())?.[0];
        if (closing !== name) throw new Error(`<${name}> closed by </${closing}>`);
        pos += closing.length;
        skipSpace();
        if (xml[pos] !== '>') throw new Error(`malformed </${name}>`);
        pos += 1;
        return el;
      }
      if (rest().startsWith('<!--')) {
        const end = xml.indexOf('-->', pos);
        if (end < 0) throw new Error('unterminated comment');
        pos = end + 3;
      } else if (rest().startsWith('<![CDATA[')) {
        const end = xml.indexOf(']]>', pos);
        if (end < 0) throw new Error('unterminated CDATA');
        el.text += xml.slice(pos + 9, end);
        pos = end + 3;
      } else if (rest().startsWith('<!') || rest().startsWith('<?')) {
        throw new Error('DTDs and processing instructions are not expected');
      } else {
        el.children.push(parseElement());
      }
    }
  }

  skipMisc();
  const root = parseElement();
  skipMisc();
  if (pos !== xml.length) throw new Error(`content after the root element at ${pos}`);
  return root;
}

/** Direct children named `name`. */
export const childrenNamed = (el: XmlElement, name: string) => el.children.filter((c) => c.name === name);

/** The text of the first direct child named `name`, or undefined. */
export const childText = (el: XmlElement, name: string) => childrenNamed(el, name)[0]?.text;
