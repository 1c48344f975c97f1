import type { FormatId } from '../../shared/domain/constants';

/** What a page says about itself that hints at its format (all read by capturePage). */
export interface FormatSignals {
  /** The page's URL (canonical when it has one). */
  url: string;
  /** og:type, lower-cased ('video.other', 'article', ...). */
  ogType: string | null;
  /** Every JSON-LD @type on the page ('VideoObject', 'NewsArticle', ...). */
  jsonLdTypes: readonly string[];
  /** The page has og:video / twitter:player, or og:audio. */
  hasVideo: boolean;
  hasAudio: boolean;
  /** <meta name="generator">, e.g. 'Substack', 'Ghost 5.8'. */
  generator: string | null;
  title: string;
  /** The chosen image URL: Substack serves its posts' images from its own CDN, even on custom domains. */
  image: string | null;
}

const JSON_LD_FORMATS: ReadonlyArray<[FormatId, readonly string[]]> = [
  ['video', ['VideoObject', 'Movie', 'Clip', 'TVEpisode', 'VideoGallery', 'BroadcastEvent']],
  ['podcast', ['PodcastEpisode', 'PodcastSeries', 'PodcastSeason', 'AudioObject', 'RadioEpisode', 'RadioSeries']],
  ['tutorial', ['HowTo', 'Course', 'LearningResource']],
  ['tool', ['SoftwareApplication', 'WebApplication', 'MobileApplication']],
];
const DEV_TYPES = ['SoftwareSourceCode', 'TechArticle', 'APIReference'];
const ARTICLE_TYPES = [
  'Article',
  'NewsArticle',
  'BlogPosting',
  'Blog',
  'Report',
  'ScholarlyArticle',
  'OpinionNewsArticle',
  'AnalysisNewsArticle',
  'ReportageNewsArticle',
  'LiveBlogPosting',
];

/** Hosts (and their subdomains) whose pages are of one format; an optional path prefix narrows it. */
const HOSTS: ReadonlyArray<[FormatId, string, RegExp?]> = [
  ['video', 'youtube.com'],
  ['video', 'youtu.be'],
  ['video', 'vimeo.com'],
  ['video', 'dailymotion.com'],
  ['video', 'twitch.tv'],
  ['video', 'tiktok.com'],
  ['video', 'loom.com'],
  ['video', 'wistia.com'],
  ['video', 'rumble.com'],
  ['video', 'ted.com', /^\/talks\//],
  ['podcast', 'podcasts.apple.com'],
  ['podcast', 'open.spotify.com', /^\/(episode|show)\//],
  ['podcast', 'overcast.fm'],
  ['podcast', 'pca.st'],
  ['podcast', 'pocketcasts.com'],
  ['podcast', 'castbox.fm'],
  ['podcast', 'podbean.com'],
  ['podcast', 'simplecast.com'],
  ['podcast', 'transistor.fm'],
  ['podcast', 'buzzsprout.com'],
  ['podcast', 'podcasters.spotify.com'],
  ['podcast', 'anchor.fm'],
  ['newsletter', 'substack.com'],
  ['newsletter', 'beehiiv.com'],
  ['newsletter', 'buttondown.email'],
  ['newsletter', 'buttondown.com'],
  ['newsletter', 'mailchi.mp'],
  ['newsletter', 'ck.page'],
  ['newsletter', 'tinyletter.com'],
  ['tool', 'producthunt.com', /^\/(posts|products)\//],
  ['tool', 'chromewebstore.google.com'],
  ['tool', 'chrome.google.com', /^\/webstore\//],
  ['tool', 'addons.mozilla.org'],
  ['tool', 'apps.apple.com'],
  ['tool', 'play.google.com', /^\/store\/apps\//],
  ['dev', 'github.com'],
  ['dev', 'gitlab.com'],
  ['dev', 'bitbucket.org'],
  ['dev', 'codeberg.org'],
  ['dev', 'stackoverflow.com'],
  ['dev', 'npmjs.com'],
  ['dev', 'pypi.org'],
  ['dev', 'crates.io'],
  ['dev', 'docs.rs'],
  ['dev', 'dev.to'],
  ['dev', 'developer.mozilla.org'],
  ['design', 'dribbble.com'],
  ['design', 'behance.net'],
  ['design', 'figma.com', /^\/community\//],
  ['design', 'awwwards.com'],
  ['ai', 'huggingface.co'],
  ['ai', 'openai.com'],
  ['ai', 'anthropic.com'],
  ['ai', 'deepmind.google'],
  ['ai', 'mistral.ai'],
];

const TUTORIAL_WORDS =
  /\b(tutorial|tutoriel|how[- ]to|step[- ]by[- ]step|beginner'?s guide|guide to|getting started|walkthrough|crash course)\b/i;
const NEWSLETTER_GENERATORS = /\b(substack|beehiiv|buttondown|convertkit)\b/i;
const SUBSTACK_IMAGES = /^([a-z0-9-]+\.)*substackcdn\.com\/|substack-post-media/;

function hostRule(url: string): FormatId | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
  for (const [format, domain, path] of HOSTS) {
    if ((host === domain || host.endsWith(`.${domain}`)) && (!path || path.test(parsed.pathname))) return format;
  }
  return null;
}

function imageHost(image: string | null): string {
  if (!image) return '';
  try {
    const url = new URL(image);
    return `${url.hostname}${url.pathname}`;
  } catch {
    return '';
  }
}

/**
 * The format to preselect in Preview & Share, or null to leave it to the user. Strong signals of
 * the page's own markup first (og:type video.*, JSON-LD types), then well-known hosts, then words
 * of the title and URL, then 'article' for pages that declare themselves articles.
 */
export function guessFormat(s: FormatSignals): FormatId | null {
  const ogType = s.ogType?.toLowerCase() ?? '';
  if (ogType.startsWith('video')) return 'video';
  const types = new Set(s.jsonLdTypes);
  for (const [format, names] of JSON_LD_FORMATS) if (names.some((n) => types.has(n))) return format;

  const byHost = hostRule(s.url);
  if (byHost) return byHost;
  if ((s.generator && NEWSLETTER_GENERATORS.test(s.generator)) || SUBSTACK_IMAGES.test(imageHost(s.image))) {
    return 'newsletter';
  }
  if (s.hasVideo && !ogType.startsWith('article')) return 'video';
  if (s.hasAudio || ogType.startsWith('music')) return 'podcast';

  let path = '';
  try {
    path = decodeURIComponent(new URL(s.url).pathname).replace(/[-_/]+/g, ' ');
  } catch {
    // An unparsable URL only loses the words of its path.
  }
  if (TUTORIAL_WORDS.test(s.title) || TUTORIAL_WORDS.test(path)) return 'tutorial';
  if (DEV_TYPES.some((n) => types.has(n))) return 'dev';
  if (ogType === 'article' || ARTICLE_TYPES.some((n) => types.has(n))) return 'article';
  return null;
}
