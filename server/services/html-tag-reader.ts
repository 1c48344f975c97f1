import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** What an importer hears of an HTML file: tags (lower-cased names and attributes) and decoded text. */
export interface TagHandler {
  onopentag(name: string, attrs: Readonly<Record<string, string>>): void;
  onclosetag(name: string): void;
  ontext(text: string): void;
}

/**
 * A streaming reader of HTML tags for imported files, on htmlparser2's Tokenizer. Unlike
 * htmlparser2's Parser it keeps no stack of open elements (whose unshift/indexOf made deep nesting
 * quadratic: 40,000 nested folders took 30 s), so every tag costs the same whatever came before:
 * time is linear in the input. Nesting is the handler's business. Entities are decoded; comments
 * and doctype are skipped, and CDATA too in HTML.
 * With `xml` (a feed): XML's entities, CDATA read as text, and `<a/>` opened and closed.
 */
export function htmlTagReader(handler: TagHandler, { xml = false } = {}) {
  /** The chunks not yet fully read, the first starting at `offset` in the whole input. */
  const buffers: string[] = [];
  let offset = 0;
  let tagName = '';
  let attrs: Record<string, string> | null = null;
  let attrName = '';
  let attrValue = '';

  const slice = (start: number, end: number): string => {
    if (start === end) return '';
    while (buffers.length > 1 && start - offset >= (buffers[0] as string).length) {
      offset += (buffers.shift() as string).length;
    }
    let out = (buffers[0] as string).slice(start - offset, end - offset);
    for (let i = 1, at = offset + (buffers[0] as string).length; end > at && i < buffers.length; i++) {
      const next = buffers[i] as string;
      out += next.slice(0, end - at);
      at += next.length;
    }
    return out;
  };
  const openTagEnd = () => {
    if (attrs) handler.onopentag(tagName, attrs);
    attrs = null;
  };
  const selfClosingTag = () => {
    const opened = attrs !== null;
    openTagEnd();
    if (xml && opened) handler.onclosetag(tagName);
  };

  const callbacks: TokenizerCallbacks = {
    ontext: (start, end) => handler.ontext(slice(start, end)),
    ontextentity: (codepoint) => handler.ontext(String.fromCodePoint(codepoint)),
    onopentagname(start, end) {
      tagName = slice(start, end).toLowerCase();
      attrs = {};
    },
    onattribname(start, end) {
      attrName = slice(start, end).toLowerCase();
    },
    onattribdata(start, end) {
      attrValue += slice(start, end);
    },
    onattribentity(codepoint) {
      attrValue += String.fromCodePoint(codepoint);
    },
    onattribend() {
      // The first of repeated attributes counts; '__proto__' would set the object's prototype.
      if (attrs && attrName !== '__proto__' && !Object.hasOwn(attrs, attrName)) attrs[attrName] = attrValue;
      attrValue = '';
    },
    onopentagend: openTagEnd,
    onselfclosingtag: selfClosingTag,
    onclosetag: (start, end) => handler.onclosetag(slice(start, end).toLowerCase()),
    oncomment() {},
    oncdata(start, endIndex, endOffset) {
      if (xml) handler.ontext(slice(start, endIndex - endOffset));
    },
    ondeclaration() {},
    onprocessinginstruction() {},
    onend() {},
  };
  const tokenizer = new Tokenizer({ decodeEntities: true, xmlMode: xml }, callbacks);

  return {
    write(chunk: string) {
      if (!chunk) return;
      buffers.push(chunk);
      tokenizer.write(chunk);
    },
    end() {
      tokenizer.end();
    },
  };
}
