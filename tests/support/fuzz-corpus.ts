import fc from 'fast-check';
import { z } from 'zod';
import * as domain from '../../shared/domain';
import { LINK_SORTS, isHttpUrl, normalizeUrl } from '../../shared/domain';

/** One malformed request to one route. */
export interface FuzzInput {
  /** What exactly is malformed, for the report, e.g. '10,000-deep array body'. */
  note: string;
  /** A path segment for each of the route's parameters, already encoded. */
  params: Record<string, string>;
  /** '' or '?…', encoded. */
  query: string;
  contentType?: string;
  body?: string | Uint8Array<ArrayBuffer>;
}

/** What the corpus needs to know of a route. */
export interface RouteShape {
  /** The route's parameter names (`*` for a wildcard). */
  params: string[];
  /** Values of rows that exist, for each parameter: malformed bodies should reach the handler. */
  realParams: Record<string, string[]>;
  /** False for GET and HEAD: only the path and the query can be malformed. */
  hasBody: boolean;
}

/** A class of malformed input and its generator for one route. */
export interface InputClass {
  name: string;
  inputs: fc.Arbitrary<FuzzInput>;
}

/** NUL, RIGHT-TO-LEFT OVERRIDE, LEFT-TO-RIGHT ISOLATE: no stored text should ever hold them. */
export const MARKERS = ['\u0000', '\u202E', '\u2066'] as const;
const HOSTILE_CHARS = [...MARKERS, '\u0007', '\u001B', '\u007F', '\u0085', '\u200B', '\uFEFF', '\uD800', '\n', '\t'];

/** Every field name of the shared zod schemas: the names request bodies and queries use. */
export const FIELD_NAMES: readonly string[] = [
  ...new Set(Object.values(domain).flatMap((value) => (value instanceof z.ZodType ? fieldNames(value) : []))),
].sort();

function fieldNames(schema: z.ZodType, seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown>;
  const shape = def.type === 'object' ? (def.shape as Record<string, z.ZodType>) : {};
  const children = [shape, def.in, def.out, def.innerType, def.element, def.options, def.valueType, def.left, def.right]
    .flatMap((c) => (Array.isArray(c) ? c : c && !(c instanceof z.ZodType) ? Object.values(c) : [c]))
    .filter((c): c is z.ZodType => c instanceof z.ZodType);
  return [...Object.keys(shape), ...children.flatMap((c) => fieldNames(c, seen))];
}

const ID_FIELDS = ['id', ...FIELD_NAMES.filter((name) => /Ids?$/.test(name))];

/** Lone surrogates (which URLs cannot carry) as U+FFFD, as a browser would send them. */
const segment = (value: string) => encodeURIComponent(value.replace(/\p{Surrogate}/gu, '\uFFFD'));

/**
 * Only loopback traffic in tests: the preview and image proxy routes fetch any public http(s) URL
 * they are given, so a generated value that would name one (`a.b`, `http://x`, `https://16843009`)
 * points at the loopback address instead, which their SSRF guard refuses without connecting.
 */
function offline(value: string): string {
  const url = normalizeUrl(value) ?? (isHttpUrl(value) ? value : null);
  return url && !['localhost', '127.0.0.1'].includes(new URL(url).hostname) ? `http://127.0.0.1/${segment(value)}` : value;
}

const text = (maxLength = 20) => fc.string({ unit: 'binary', maxLength }).map(offline);
const hostile = fc
  .tuple(text(10), fc.constantFrom(...HOSTILE_CHARS), text(10))
  // Again as a whole: URL parsing drops tabs and newlines, so `x.` + tab + `com` names a host.
  .map(([a, c, b]) => offline(a + c + b))
  .chain((s) => fc.constantFrom(s, '\u0000\u0000', `Ann\u0000\u202Ee`));
const junkId = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    'null',
    'undefined',
    'NaN',
    '[object Object]',
    '1e309',
    '99999999999999999999999999',
    "' OR '1'='1",
    '"; DROP TABLE links; --',
    '../../../etc/passwd',
    ' ',
    '__proto__',
    'x'.repeat(5000),
  ),
  fc.uuid(),
  text(40),
  hostile,
);
/** Path segments that are not valid percent-encoding, sent raw. */
const RAW_SEGMENTS = ['%', '%zz', '%E0%A4%A', '%00', '%2F..%2F', '%C0%AF', '%FF%FE'];

const base64url = (s: string) => Buffer.from(s).toString('base64url');
/** The sort tags our keyset cursors start with (server/services): a cursor of the right shape gets past decoding. */
const CURSOR_TAGS = [...LINK_SORTS, ...LINK_SORTS.map((sort) => `r-${sort}`), 'subscribers'];
const junkCursor = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => base64url(JSON.stringify(v))),
  fc
    .tuple(fc.constantFrom(...CURSOR_TAGS), fc.array(fc.oneof(hostile, text(), fc.integer()), { minLength: 1, maxLength: 3 }))
    .map(([tag, values]) => base64url(JSON.stringify([tag, ...values]))),
  fc.array(fc.oneof(fc.jsonValue({ maxDepth: 1 }), hostile), { maxLength: 4 }).map((v) => base64url(JSON.stringify(v))),
  fc.constantFrom(
    '',
    '!!!',
    '====',
    'null',
    base64url('[1e309,"x"]'),
    base64url('["2024-13-45T99:99:99Z","x"]'),
    base64url(`${'['.repeat(5000)}${']'.repeat(5000)}`),
    'A'.repeat(600),
  ),
  text(40),
);
const wrongValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, true, 0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, '', ' ', [], {}, [null], { id: 1 }),
);

const queryOf = (pairs: [string, string][]) => (pairs.length ? `?${new URLSearchParams(pairs)}` : '');
/** JSON text of an object, written by hand so that keys like `__proto__` go out as they are. */
const jsonObject = (entries: [string, unknown][]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;

const field = fc.constantFrom(...FIELD_NAMES, '__proto__', 'constructor');
const queryKey = fc.constantFrom(...FIELD_NAMES, 'cursor', 'limit', 'token', 'v');

// Large inputs are built once: a 1 MB string is the same for every route.
const MB = 1_000_000;
/** A JSON string of `char` just under the 1 MB body limit, so that it reaches the handler. */
const megaString = (char: string) => char.repeat(Math.floor((MB - 200) / (Buffer.byteLength(JSON.stringify(char)) - 2)));
const MEGA_STRINGS = ['a', 'é', '\u0000', '<', '𝕏'].map((char) => ({ char, value: megaString(char) }));
const DEEP_ARRAY = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
const WIDE_ARRAY = JSON.stringify(Array.from({ length: 100_000 }, (_, i) => String(i)));

const BOUNDARY = 'fuzzboundary';
const multipartFile = (filename: string, content: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`;

interface BodyVariant {
  note: string;
  contentType?: string;
  body: string | Uint8Array<ArrayBuffer>;
}
const json = (note: string, body: string): BodyVariant => ({ note, contentType: 'application/json', body });

const wrongTypeBodies: fc.Arbitrary<BodyVariant> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v))
    .map((v) => json(`body ${JSON.stringify(v).slice(0, 40)}`, JSON.stringify(v))),
  fc.array(fc.tuple(field, wrongValue), { minLength: 1, maxLength: 5 })
    .map((entries) => json(`fields of the wrong type: ${entries.map(([k]) => k).join(', ')}`, jsonObject(entries))),
);

const megaBodies: fc.Arbitrary<BodyVariant> = fc.oneof(
  fc.tuple(field, fc.constantFrom(...MEGA_STRINGS))
    .map(([k, { char, value }]) => json(`1 MB of ${JSON.stringify(char)} in field ${k}`, jsonObject([[k, value]]))),
  fc.constantFrom(...MEGA_STRINGS).map(({ char, value }) => json(`1 MB string of ${JSON.stringify(char)} as the body`, JSON.stringify(value))),
  fc.constant(json('100,000-item array body', WIDE_ARRAY)),
  fc.constant(json('2 MB body (over the limit)', JSON.stringify({ title: 'x'.repeat(2 * MB) }))),
);

const deepBodies: fc.Arbitrary<BodyVariant> = fc.oneof(
  fc.constant(json('10,000-deep array body', DEEP_ARRAY)),
  fc.constant(json('5,000-deep object body', DEEP_OBJECT)),
  field.map((k) => json(`10,000-deep array in field ${k}`, `{${JSON.stringify(k)}:${DEEP_ARRAY}}`)),
  field.map((k) => json(`5,000-deep object in field ${k}`, `{${JSON.stringify(k)}:${DEEP_OBJECT}}`)),
);

/**
 * Valid values for some field names: a body of them gets past validation on many routes (unknown
 * fields are ignored), so that NUL and bidi characters put into one of its texts reach the store.
 */
const PLAUSIBLE = {
  bio: 'Curious',
  color: '#336699',
  description: 'About things',
  email: 'fuzz@example.com',
  isPublic: false,
  linkText: 'Read',
  location: 'Here',
  name: 'Fuzz',
  tag: 'fuzz-tag',
  tags: ['fuzz-tag'],
  title: 'A title',
  topic: 'fuzzing',
  url: 'https://example.com/fuzz',
};
const TEXT_FIELDS = ['bio', 'description', 'linkText', 'location', 'name', 'tag', 'tags', 'title', 'topic'] as const;

const hostileBodies: fc.Arbitrary<BodyVariant> = fc.oneof(
  fc
    .array(fc.tuple(field, fc.oneof(hostile, fc.array(hostile, { minLength: 1, maxLength: 3 }))), { minLength: 1, maxLength: 5 })
    .map((entries) => json(`NUL/bidi in fields ${entries.map(([k]) => k).join(', ')}`, jsonObject(entries))),
  fc.tuple(fc.constantFrom(...TEXT_FIELDS), hostile).map(([k, h]) =>
    json(`NUL/bidi in ${k} of an otherwise valid body`, jsonObject(Object.entries({ ...PLAUSIBLE, [k]: k === 'tags' ? [h] : h }))),
  ),
);

const idBodies: fc.Arbitrary<BodyVariant> = fc
  .array(fc.tuple(fc.constantFrom(...ID_FIELDS), fc.oneof(junkId, fc.array(junkId, { maxLength: 3 }))), { minLength: 1, maxLength: 3 })
  .map((entries) => json(`invalid ids in fields ${entries.map(([k]) => k).join(', ')}`, jsonObject(entries)));

const contentTypeBodies: fc.Arbitrary<BodyVariant> = fc.oneof(
  fc.constant({ note: 'JSON sent as text/plain', contentType: 'text/plain', body: '{"title":"x","name":"y"}' }),
  fc.constant({ note: 'form-urlencoded body', contentType: 'application/x-www-form-urlencoded', body: 'title=x&name=y&email=a%40b.c' }),
  fc.constant({ note: 'multipart without boundary', contentType: 'multipart/form-data', body: multipartFile('a.png', 'x') }),
  fc.constant({ note: 'multipart with a JSON body', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: '{"title":"x"}' }),
  fc.constant({
    note: 'multipart with a text field and no file',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
  }),
  hostile.map((name) => ({
    note: 'multipart file with a NUL/bidi file name and junk bytes',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: multipartFile(name.replace(/["\r\n]/g, ''), '\u0000\u00ff not an image'),
  })),
  fc.constantFrom('application/xml', 'image/png', 'application/octet-stream', 'garbage;;;', 'application/json; charset=utf-16', 'application/json, text/plain')
    .map((contentType) => ({ note: `body as ${contentType}`, contentType, body: '{"title":"x"}' })),
  fc.constant({ note: 'body without a content type', body: '{"title":"x"}' }),
);

const emptyOrTruncatedBodies: fc.Arbitrary<BodyVariant> = fc.oneof(
  fc.constantFrom('', ' \n ', '{', '[', '"', 'nul', '{"title":', '{"title":"x', '{"a":1,}', '\uFEFF{}').map((body) => json(`body ${JSON.stringify(body)}`, body)),
  fc.array(fc.tuple(field, text()), { minLength: 1, maxLength: 4 })
    .chain((entries) => {
      const whole = jsonObject(entries);
      return fc.integer({ min: 1, max: whole.length - 1 }).map((cut) => json(`JSON cut after ${cut} of ${whole.length} bytes`, whole.slice(0, cut)));
    }),
  fc.constant({ note: 'invalid UTF-8 in JSON', contentType: 'application/json', body: new Uint8Array([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x22, 0x7d]) }),
  fc.constant({ note: 'empty multipart', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: '' }),
  fc.integer({ min: 10, max: 120 }).map((cut) => ({
    note: `multipart cut after ${cut} bytes`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: multipartFile('a.png', '\u0089PNG\r\n\u001a\n'.repeat(4)).slice(0, cut),
  })),
);

/**
 * The classes of malformed input for a route: wrong types, 1 MB strings, deep nesting, NUL and
 * bidi characters, invalid ids and cursors, wrong content types, empty and truncated bodies.
 * Routes without a body get the classes that fit a path and a query.
 */
export function inputClasses(route: RouteShape): InputClass[] {
  const real = fc.record(Object.fromEntries(route.params.map((p) => [p, fc.constantFrom(...route.realParams[p]!).map(segment)])));
  const withBody = (bodies: fc.Arbitrary<BodyVariant>) =>
    fc.tuple(real, bodies).map(([params, b]): FuzzInput => ({ note: b.note, params, query: '', contentType: b.contentType, body: b.body }));

  const junkParam = fc.oneof(junkId.map(segment), fc.constantFrom(...RAW_SEGMENTS));
  const invalidIds: fc.Arbitrary<FuzzInput> = route.params.length
    ? fc
        .tuple(real, fc.constantFrom(...route.params), junkParam)
        .map(([params, p, junk]) => ({ note: `invalid :${p} ${JSON.stringify(junk.slice(0, 40))}`, params: { ...params, [p]: junk }, query: '' }))
    : fc.tuple(fc.constantFrom(...ID_FIELDS), junkId).map(([k, junk]) => ({ note: `invalid ${k} in the query`, params: {}, query: queryOf([[k, junk]]) }));

  const hostileQuery = fc
    .tuple(real, fc.array(fc.tuple(queryKey, hostile), { minLength: 1, maxLength: 3 }))
    .map(([params, pairs]): FuzzInput => ({ note: `NUL/bidi in query ${pairs.map(([k]) => k).join(', ')}`, params, query: queryOf(pairs) }));
  const hostileParam: fc.Arbitrary<FuzzInput> = route.params.length
    ? fc.tuple(real, fc.constantFrom(...route.params), hostile).map(([params, p, h]) => ({ note: `NUL/bidi in :${p}`, params: { ...params, [p]: segment(h) }, query: '' }))
    : hostileQuery;

  const queries = fc.tuple(
    real,
    fc.array(
      fc.oneof(
        junkCursor.map((c): [string, string] => ['cursor', c]),
        fc.tuple(fc.constant('limit'), fc.constantFrom('-1', '0', '1e309', 'abc', '999999999', '1.5')),
        fc.tuple(queryKey, fc.oneof(text(), junkId)),
      ),
      { minLength: 1, maxLength: 4 },
    ),
    fc.boolean(),
  ).map(([params, pairs, repeat]): FuzzInput => {
    // Repeating a key makes the framework hand the handler an array instead of a string.
    const sent = repeat ? [...pairs, ...pairs] : pairs;
    return { note: `query ${sent.map(([k]) => k).join(', ')}`, params, query: queryOf(sent) };
  });

  const longQuery = fc.tuple(real, queryKey, fc.constantFrom(8_000, MB)).map(([params, k, n]): FuzzInput => ({
    note: `${n === MB ? '1 MB' : '8 KB'} query value of ${k}`,
    params,
    query: queryOf([[k, 'q'.repeat(n)]]),
  }));

  if (!route.hasBody) {
    return [
      { name: 'invalid ids', inputs: invalidIds },
      { name: 'invalid cursors and queries', inputs: queries },
      { name: 'NUL and bidi', inputs: fc.oneof(hostileParam, hostileQuery) },
      { name: '1 MB strings', inputs: longQuery },
    ];
  }
  return [
    { name: 'wrong types', inputs: withBody(wrongTypeBodies) },
    { name: '1 MB strings', inputs: withBody(megaBodies) },
    { name: 'deep nesting', inputs: withBody(deepBodies) },
    { name: 'NUL and bidi', inputs: fc.oneof(withBody(hostileBodies), hostileParam) },
    { name: 'invalid ids', inputs: fc.oneof(invalidIds, withBody(idBodies)) },
    { name: 'invalid cursors and queries', inputs: queries },
    { name: 'wrong content types', inputs: withBody(contentTypeBodies) },
    { name: 'empty and truncated bodies', inputs: withBody(emptyOrTruncatedBodies) },
  ];
}
