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
