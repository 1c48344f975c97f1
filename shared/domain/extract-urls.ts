
import { URL_MAX_LENGTH } from './constants';
import { normalizeUrl } from './url';

/**
 * Finding links in free text: pasted newsletters, chat exports, tweets, markdown, HTML, and the
 * text OCR reads from a screenshot. Pure, so the web app, the extension and the server
 * agree on what a text contains.
 *
 * Found: http(s) URLs, `www.` hosts, and bare domains followed by a path (`example.com/post/1`,
 * not `report.pdf` or `v1.2`). Every result goes through normalizeUrl (SPEC §5), so only http(s)
 * URLs come out, and the list is de-duplicated in order of first appearance.
 */

/** Country-code top-level domains (ISO 3166 plus eu, uk, ac). */
const CC_TLDS = new Set(
  (
    'ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz ' +
    'ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk fm ' +
    'fo fr ga gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it ' +
    'je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn ' +
    'mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps ' +
    'pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk ' +
    'tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw'
  ).split(' '),
);

/** Generic top-level domains common enough to recognise without a scheme or `www.`. */
const GENERIC_TLDS = new Set(
  (
    'com net org edu gov mil int info biz name pro mobi app dev page blog news tech io xyz site online ' +
    'store shop website space live life world today email cloud digital media network social studio design ' +
    'art club wiki link one top icu fun lol agency academy company codes guide tools works systems solutions ' +
    'ventures capital finance money fund health care science school training community foundation ' +
    'institute international global group team zone center run build chat video tv fm podcast audio ' +
    'photo photos pics gallery film movie game games shopping blue red green plus rocks ninja'
  ).split(' '),
);

/**
 * TLDs after which a space following the dot is taken for an OCR slip ('example. com/path'): the
 * generic ones and the country codes that are not also English words (it, no, so, to, be, ...).
 */
const REPAIR_TLDS = new Set([
  ...GENERIC_TLDS,
  ...'uk de fr io co ai me tv fm ly gg sh ca au nl es ch se dk fi jp cn br eu cc ru pl ie nz za mx gl'.split(' '),
]);

const isKnownTld = (tld: string) => {
  const lower = tld.toLowerCase();
  return lower.length === 2 ? CC_TLDS.has(lower) : GENERIC_TLDS.has(lower);
};

/** Characters that may appear inside a URL (RFC 3986's unreserved and reserved ones, %, and letters of any script). */
const URL_CHAR = String.raw`[\p{L}\p{N}\p{M}\-._~:/?#\[\]@!$&'()*+,;=%]`;
/** A host label: letters and digits, inner hyphens. */
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?`;
/** What may not come right before a bare or `www.` host: it would be part of a word, an e-mail or another scheme's URL. */
const NOT_AFTER = String.raw`(?<![\p{L}\p{N}@.\-/:%_\\])`;

/**
 * One candidate at a time, leftmost first: an http(s) URL, a `www.` host, or a bare host with a
 * top-level domain followed by a path (the TLD is checked afterwards).
 */
const CANDIDATE = new RegExp(
  [
    String.raw`https?:\/\/${URL_CHAR}+`,
    String.raw`${NOT_AFTER}www\.${URL_CHAR}+`,
    String.raw`${NOT_AFTER}(?:${LABEL}\.)+\p{L}{2,24}(?::\d{1,5})?\/${URL_CHAR}*`,
  ].join('|'),
  'giu',
);

/** A candidate's own host part, to check its TLD. */
const BARE_HOST = new RegExp(String.raw`^(?:${LABEL}\.)+(\p{L}{2,24})(?::\d{1,5})?\/`, 'u');

const TRAILING_PUNCTUATION = new Set([...`.,;:!?'"*…`]);
const CLOSING: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

const count = (text: string, ch: string) => text.split(ch).length - 1;

/** Drops trailing punctuation and closing brackets that have no opening one inside the URL. */
export function trimUrlEnd(candidate: string): string {
  let url = candidate;
  for (;;) {
    const last = url.at(-1);
    if (last === undefined) return url;
    const opening = CLOSING[last];
    if (TRAILING_PUNCTUATION.has(last) || (opening && count(url, last) > count(url, opening))) {
      url = url.slice(0, -1);
    } else {
      return url;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Repairs before the search: text formats and OCR slips.

const HOST_START = String.raw`(?<![\p{L}\p{N}\-.@])`;
/**
 * 'https: //', 'https:/ /', 'http ://', 'https;//', 'https:// example.com', a lost slash
 * ('https:/www.') and a misread 'http' ('hitps', 'htps', 'hittp') (OCR).
 */
const SCHEME_SLIP = /\b(?:h(?:i?tt|it|t)p)(s?) ?[:;] ?\/ ?\/? ?(?=[\p{L}\p{N}])/giu;
/**
 * 'https:/iwww.' (OCR read '//' as '/i', '/l' or '/|'): a scheme with one slash is broken anyway,
 * and no host starts with 'iwww.', so this is read as 'https://www.'. (Two w's are left alone:
 * 'https:/iww.org' could be iww.org.)
 */
const SLASH_SLIP = /\b(h(?:i?tt|it|t)p)(s?) ?[:;] ?\/[il|](?=www\.)/giu;
/**
 * '.htmi', '.htmI', '.htm1', '.htm|' at the end of a path (OCR misread the 'l' of '.html'): no file
 * type is spelled so, so this is '.html'. (A '.htm]' is left alone: it can be '.htm' in brackets.)
 */
const HTML_SLIP = /(?<=[\p{L}\p{N}_-])\.htm[iI1|](?=$|[\s?#"'<>),;!]|\.(?:\s|$))/gmu;
/** 'www. example.com' (OCR). */
const WWW_SLIP = /\b(www) ?\. ?(?=[\p{Ll}\p{N}])/gu;
/** A space next to the dot before a TLD: 'example. com/path', 'example .com/path' (OCR). */
const DOT_SLIP = new RegExp(
  String.raw`${HOST_START}((?:https?:\/\/|www\.)?${LABEL}(?:\.${LABEL})*)( \. ?| ?\. )(\p{Ll}{2,24})(?![\p{L}\p{N}-])`,
  'gu',
);

function repairSlips(text: string): string {
  return text
    .replace(SLASH_SLIP, (_, http: string, secure: string) => `${http}${secure}://`)
    .replace(HTML_SLIP, '.html')
    .replace(SCHEME_SLIP, (_, secure: string) => `http${secure.toLowerCase()}://`)
    .replace(WWW_SLIP, (_, www: string) => `${www}.`)
    .replace(DOT_SLIP, (match: string, host: string, _sep: string, tld: string, offset: number, whole: string) => {
      const next = whole.slice(offset + match.length);
      const prefixed = /^(?:https?:\/\/|www\.)/i.test(host);
      const pathFollows = /^(?:\/|:\d)/.test(next);
      return REPAIR_TLDS.has(tld) && (prefixed || pathFollows) ? `${host}.${tld}` : match;
    });
}

/** Entities and escapes that hide URL characters in HTML and in JSON exports (Slack, Discord). */
function decodeText(text: string): string {
  return text
    .replace(/\\\//g, '/')
    .replace(/&amp;/gi, '&')
    .replace(/&#0*38;|&#x0*26;/gi, '&')
    .replace(/&#0*47;|&#x0*2f;/gi, '/');
}

// ---------------------------------------------------------------------------------------------
// URLs broken across a line break (OCR of a wrapped URL, hard-wrapped e-mails).

const CONTINUATION = new RegExp(String.raw`^${URL_CHAR}+`, 'u');
const LINE_BREAK = /^[ \t]*\r?\n/;
/** A line break with one blank line in it: OCR sometimes sets a wrapped URL's second line apart. */
const PARAGRAPH_BREAK = /^[ \t]*\r?\n[ \t]*\r?\n/;
/** A URL ending in one of these goes on. */
const OPEN_ENDS = new Set([...'-_=&?#%']);
/** A line starting with one of these continues the URL above ('#' starts hashtags too, so it does not). */
const CONTINUING_STARTS = new Set([...'/?&=%_~']);

/**
 * The text that continues `url` on the next line (with the line break before it), or null when the
 * line starts something else. A URL ending in '-' (no URL ends so) goes on across one blank line too.
 */
function continuationOf(url: string, rest: string): { br: string; token: string } | null {
  const br = (url.endsWith('-') ? PARAGRAPH_BREAK.exec(rest) : null) ?? LINE_BREAK.exec(rest);
  if (!br) return null;
  const token = CONTINUATION.exec(rest.slice(br[0].length))?.[0];
  if (!token || /^(?:https?[:;]|www\.)/i.test(token)) return null;
  const last = url.at(-1) ?? '';
  const first = token[0] ?? '';
  const joins =
    OPEN_ENDS.has(last) ||
    CONTINUING_STARTS.has(first) ||
    (first === '.' && /^\.[\p{L}\p{N}]/u.test(token)) ||
    // After a slash, a next line like 'path-to-article' or 'p/2' goes on; a word like 'Thanks' does not.
    (last === '/' && /[/\-_.=?&#%]./u.test(token));
  return joins ? { br: br[0], token } : null;
}

// ---------------------------------------------------------------------------------------------

function acceptable(candidate: string): boolean {
  if (/^https?:\/\//i.test(candidate)) return true;
  if (/^www\./i.test(candidate)) return true;
  const tld = BARE_HOST.exec(candidate)?.[1];
  return tld !== undefined && isKnownTld(tld);
}

/** The host must have a name made of labels (not '.', not 'a..b'). */
function plausibleHost(url: string): boolean {
  const host = new URL(url).hostname;
  if (host === 'localhost' || host.startsWith('[')) return true;
  return host.split('.').every((label) => label.length > 0) && host.includes('.');
}

/**
 * Every http(s) URL in `text`, normalised (SPEC §5) and de-duplicated, in order of appearance.
 * Other schemes (javascript:, data:, ftp:, mailto:) and e-mail addresses are not URLs here.
 */
export function extractUrls(text: string): string[] {
  const source = repairSlips(decodeText(text));
  const found: string[] = [];
  const seen = new Set<string>();
  const re = new RegExp(CANDIDATE.source, CANDIDATE.flags);
  let match: RegExpExecArray | null;
  while ((match = re.exec(source)) !== null) {
    let raw = match[0];
    let end = match.index + raw.length;
    for (let joined = continuationOf(raw, source.slice(end)); joined; joined = continuationOf(raw, source.slice(end))) {
      raw += joined.token;
      end += joined.br.length + joined.token.length;
    }
    re.lastIndex = end;

    const candidate = trimUrlEnd(raw);
    if (candidate.length > URL_MAX_LENGTH || !acceptable(candidate)) continue;
    const url = normalizeUrl(candidate);
    if (!url || !plausibleHost(url) || seen.has(url)) continue;
    seen.add(url);
    found.push(url);
  }
  return found;
}
