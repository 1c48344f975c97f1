import Parser from 'rss-parser';

/** A feed as a feed reader sees it. */
export type ParsedFeed = Awaited<ReturnType<Parser['parseString']>>;

/**
 * Parses an RSS 2.0 feed with rss-parser, a widely used feed reader library (xml2js in strict mode
 * underneath): malformed XML (an unescaped `&` or `<`, a tag left open) and anything that is not an
 * RSS 2.0 document are rejected, not repaired.
 */
export async function parseRss2(xml: string): Promise<ParsedFeed> {
  if (!/^<\?xml[^>]*\?>\s*<rss\b[^>]*\bversion="2\.0"/.test(xml)) throw new Error('not an RSS 2.0 document');
  return new Parser({ xml2js: { strict: true } }).parseString(xml);
}
