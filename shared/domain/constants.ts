/** Business constants of SPEC §9 and the fixed lists of SPEC §2/§3. */

export const FEED_PAGE_SIZE = 10;
export const AUTH_INIT_TIMEOUT_MS = 10_000;
export const PREVIEW_DEBOUNCE_MS = 500;
export const COLLABORATOR_SEARCH_LIMIT = 10;
export const TRUNCATE_LENGTH = 100;
export const DIRECTORY_SKELETON_COUNT = 24;
export const DEFAULT_LINK_TEXT = 'Visit Link';
export const DEFAULT_TOPIC_COLOR = '#2563eb';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;
export const BIO_MAX_LENGTH = 500;
export const LOCATION_MAX_LENGTH = 100;
export const WEBSITE_MAX_LENGTH = 2048;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Arrays and objects in a JSON body nest at most this deep (400 beyond). */
export const JSON_MAX_DEPTH = 64;

export const TOAST_DURATION_MS = { success: 2000, error: 4000, blank: 4000 } as const;
export const TOAST_LIMIT = 20;

export const FORMATS = [
  { id: 'article', label: 'Article', emoji: '📄' },
  { id: 'video', label: 'Video', emoji: '🎥' },
  { id: 'podcast', label: 'Podcast', emoji: '🎧' },
  { id: 'newsletter', label: 'Newsletter', emoji: '📰' },
  { id: 'tool', label: 'Tool', emoji: '🛠️' },
  { id: 'tutorial', label: 'Tutorial', emoji: '📚' },
  { id: 'design', label: 'Design', emoji: '🎨' },
  { id: 'ai', label: 'AI', emoji: '🤖' },
  { id: 'dev', label: 'Dev', emoji: '💻' },
  { id: 'other', label: 'Other', emoji: '✨' },
] as const;
export type FormatId = (typeof FORMATS)[number]['id'];

export const FOCUS_CATEGORIES = [
  'generaliste',
  'tech-politique',
  'tech-social',
  'tech-retail',
  'ia',
  'silicon-valley',
  'ia-audio-video',
  'strategie-innovation',
  'futur-of-work',
  'creator-economy',
  'marketing',
  'tourisme',
  'product-management',
  'growth',
  'medias',
  'dystopie',
  'culturetech',
  'chine',
  'us',
  'neuroscience',
] as const;
export type FocusCategory = (typeof FOCUS_CATEGORIES)[number];

export const DEFAULT_TOPIC_NAMES = [
  'Future of Work',
  'Productivity',
  'AI',
  'Tech & Politique',
  'Tech & Social',
  'Tech & Retail',
  'Silicon Valley',
  'IA Audio/Video',
  'Stratégie & Innovation',
  'Creator Economy',
  'Marketing',
  'Tourisme',
  'Product Management',
  'Growth',
  'Médias',
  'Dystopie',
  'CultureTech',
  'Chine',
  'US',
  'Neuroscience',
] as const;

/** Palette for new topics; the first entry is the spec's default colour. */
export const TOPIC_PALETTE = [
  '#2563eb',
  '#dc2626',
  '#16a34a',
  '#d97706',
  '#9333ea',
  '#db2777',
  '#0891b2',
  '#4f46e5',
  '#65a30d',
  '#475569',
] as const;

/** SPEC §3: the author name shown when the user is missing. */
export const UNKNOWN_USER_NAME = 'Unknown User';
export const TITLE_MAX_LENGTH = 300;
export const DESCRIPTION_MAX_LENGTH = 5000;
export const LINK_TEXT_MAX_LENGTH = 50;
export const URL_MAX_LENGTH = 2048;
export const TOPIC_NAME_MAX_LENGTH = 50;
export const MAX_TOPICS_PER_LINK = 20;

export const FORMAT_IDS = FORMATS.map((f) => f.id) as [FormatId, ...FormatId[]];
export const TIME_WINDOWS = ['all', 'today', 'week', 'month'] as const;
export const LINK_SORTS = ['newest', 'oldest', 'most_liked'] as const;

export const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** The path of an image uploaded to our server (POST /api/uploads/images answers one). */
export const UPLOADED_IMAGE_PATH = /^\/api\/uploads\/[a-z0-9/_-]+\.webp$/i;

export const SUPERCURATION_PAGE_SIZE = 24;
export const DIRECTORY_PAGE_SIZE = 24;
export const SLUG_MAX_LENGTH = 100;
/** A fediverse username (Mastodon's rule: lowercase letters, digits and underscores, at most 30). */
export const FEDIVERSE_USERNAME_MAX_LENGTH = 30;
export const FEDIVERSE_USERNAME = /^[a-z0-9_]+$/;
export const TAG_NAME_MAX_LENGTH = 50;
export const TAG_CATEGORY_NAME_MAX_LENGTH = 50;
export const MAX_TOPICS_PER_SUPERCURATION = 20;
export const SEARCH_QUERY_MAX_LENGTH = 200;

/** SPEC §5: lowercase letters, digits and single inner hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// ---------------------------------------------------------------------------------------------
// Focus categories (SPEC §2 directory). A collection belongs to a focus category when one of its
// topics has one of that category's topic ids (the ids of the 20 default topics, derived from
// their names, plus the category's own id so a user topic named like the category counts too).
// A collection with no topic of any category is 'generaliste'. A collection may be in several.

export const FOCUS_TOPIC_IDS: Record<FocusCategory, readonly string[]> = {
  generaliste: [],
  'tech-politique': ['tech-politique'],
  'tech-social': ['tech-social'],
  'tech-retail': ['tech-retail'],
  ia: ['ai', 'ia'],
  'silicon-valley': ['silicon-valley'],
  'ia-audio-video': ['ia-audio-video'],
  'strategie-innovation': ['strategie-innovation'],
  'futur-of-work': ['future-of-work', 'futur-of-work', 'productivity'],
  'creator-economy': ['creator-economy'],
  marketing: ['marketing'],
  tourisme: ['tourisme'],
  'product-management': ['product-management'],
  growth: ['growth'],
  medias: ['medias'],
  dystopie: ['dystopie'],
  culturetech: ['culturetech'],
  chine: ['chine'],
  us: ['us'],
  neuroscience: ['neuroscience'],
};

/** Every topic id that puts a collection in some focus category other than 'generaliste'. */
export const FOCUS_MAPPED_TOPIC_IDS: readonly string[] = [...new Set(Object.values(FOCUS_TOPIC_IDS).flat())];
/** The categories each mapped topic id puts a collection in. */
const CATEGORIES_OF_TOPIC = new Map<string, FocusCategory[]>();
for (const category of FOCUS_CATEGORIES) {
  for (const topicId of FOCUS_TOPIC_IDS[category]) CATEGORIES_OF_TOPIC.set(topicId, [...(CATEGORIES_OF_TOPIC.get(topicId) ?? []), category]);
}

/**
 * The focus categories a collection with these topic ids belongs to, in FOCUS_CATEGORIES' order.
 * Every card of a directory page asks: by topic, not by category (which tried each category's ids
 * against the card's, ~3 % of a directory search's CPU).
 */
export function focusCategoriesOf(topicIds: readonly string[]): FocusCategory[] {
  const found = new Set<FocusCategory>();
  for (const topicId of topicIds) for (const category of CATEGORIES_OF_TOPIC.get(topicId) ?? []) found.add(category);
  return found.size > 0 ? FOCUS_CATEGORIES.filter((category) => found.has(category)) : ['generaliste'];
}

/** Display labels of the focus chips (the ids are the spec's; labels are ours). */
export const FOCUS_LABELS: Record<FocusCategory, string> = {
  generaliste: 'Généraliste',
  'tech-politique': 'Tech & Politique',
  'tech-social': 'Tech & Social',
  'tech-retail': 'Tech & Retail',
  ia: 'IA',
  'silicon-valley': 'Silicon Valley',
  'ia-audio-video': 'IA Audio/Video',
  'strategie-innovation': 'Stratégie & Innovation',
  'futur-of-work': 'Futur of Work',
  'creator-economy': 'Creator Economy',
  marketing: 'Marketing',
  tourisme: 'Tourisme',
  'product-management': 'Product Management',
  growth: 'Growth',
  medias: 'Médias',
  dystopie: 'Dystopie',
  culturetech: 'CultureTech',
  chine: 'Chine',
  us: 'US',
  neuroscience: 'Neuroscience',
};

/** One request shares at most this many links. */
export const BATCH_SHARE_MAX = 100;

/** Previews of found URLs fetched at once. */
export const IMPORT_PREVIEW_CONCURRENCY = 3;

/**
 * The extension sends at most this much of the article's HTML (it cuts at a tag); the server cuts
 * its copy to 2 MB. Here rather than in readable.ts so that the capture script needs no zod.
 */
export const READABLE_UPLOAD_MAX_CHARS = 2_000_000;
