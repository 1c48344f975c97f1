/** The preview facts of a page's JSON-LD (`<script type="application/ld+json">`) blocks. */

export interface JsonLdFacts {
  headline: string | null;
  description: string | null;
  /** `image`, then `thumbnailUrl`, as written (not yet resolved against the page). */
  image: string | null;
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The top-level entities of a block: the value itself, an array of them, or an @graph. */
function entities(value: unknown): Node[] {
  if (Array.isArray(value)) return value.flatMap(entities);
  if (!isNode(value)) return [];
  return Array.isArray(value['@graph']) ? [value, ...entities(value['@graph'])] : [value];
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

/** An image given as a URL, an ImageObject ({url} or {contentUrl}), or a list of those. */
function imageOf(value: unknown): string | null {
  if (Array.isArray(value)) return imageOf(value[0]);
  if (isNode(value)) return text(value.url) ?? text(value.contentUrl);
  return text(value);
}

/** Reads the blocks in document order; a block that is not valid JSON is skipped. */
export function jsonLdFacts(blocks: string[]): JsonLdFacts {
  const facts: JsonLdFacts = { headline: null, description: null, image: null };
  for (const block of blocks) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(block);
    } catch {
      continue;
    }
    for (const node of entities(parsed)) {
      facts.headline ??= text(node.headline);
      facts.description ??= text(node.description);
      facts.image ??= imageOf(node.image) ?? imageOf(node.thumbnailUrl);
    }
  }
  return facts;
}
