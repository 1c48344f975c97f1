/** The preview facts of a page's JSON-LD (`<script type="application/ld+json">`) blocks. */

export interface JsonLdFacts {
  headline: string | null;
  description: string | null;
  /** `image`, then `thumbnailUrl`, as written (not yet resolved against the page). */
  image: string | null;
  /** The publisher's name and logo (the logo as written). */
  publisher: string | null;
  logo: string | null;
  /** The first author's name. */
  author: string | null;
  datePublished: string | null;
  inLanguage: string | null;
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

/** A node, or the entity of the same block it refers to by `@id` (as @graph members do). */
function deref(value: unknown, byId: Map<string, Node>): unknown {
  const first = Array.isArray(value) ? value[0] : value;
  if (isNode(first) && typeof first['@id'] === 'string' && first.name === undefined) return byId.get(first['@id']) ?? first;
  return first;
}

/** A person or organisation given as a name or a node with a name (the first of a list). */
function nameOf(value: unknown, byId: Map<string, Node>): string | null {
  const node = deref(value, byId);
  return isNode(node) ? text(node.name) : text(node);
}

const typed = (node: Node, type: string) => [node['@type']].flat().includes(type);

/** Reads the blocks in document order; a block that is not valid JSON is skipped. */
export function jsonLdFacts(blocks: string[]): JsonLdFacts {
  const facts: JsonLdFacts = {
    headline: null,
    description: null,
    image: null,
    publisher: null,
    logo: null,
    author: null,
    datePublished: null,
    inLanguage: null,
  };
  for (const block of blocks) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(block);
    } catch {
      continue;
    }
    const nodes = entities(parsed);
    const byId = new Map(nodes.filter((n) => typeof n['@id'] === 'string').map((n) => [n['@id'] as string, n]));
    for (const node of nodes) {
      facts.headline ??= text(node.headline);
      facts.description ??= text(node.description);
      facts.image ??= imageOf(node.image) ?? imageOf(node.thumbnailUrl);
      facts.author ??= nameOf(node.author, byId);
      facts.datePublished ??= text(node.datePublished) ?? text(node.uploadDate);
      facts.inLanguage ??= nameOf(node.inLanguage, byId);
      const publisher = deref(node.publisher, byId);
      facts.publisher ??= nameOf(publisher, byId) ?? (typed(node, 'WebSite') ? text(node.name) : null);
      if (isNode(publisher)) facts.logo ??= imageOf(publisher.logo);
    }
  }
  return facts;
}
