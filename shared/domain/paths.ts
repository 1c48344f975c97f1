/**
 * Every page of the web app by its path: one place for the web app's links, the extension, and
 * the server's pages, e-mails and feeds (which put the public URL in front).
 */
const seg = encodeURIComponent;

export const paths = {
  home: '/home',
  /** What the curators and collections I follow publish. */
  following: '/following',
  directory: '/directory',
  settings: '/settings',
  /** Where a phone's share sheet sends a shared page (the web app manifest's share_target). */
  shareTarget: '/share-target',
  /** Where the e-mail verification link ends (Better Auth appends ?error=CODE on failure). */
  emailVerified: '/email-verified',
  /** The page the reset e-mail links to, with ?token=. */
  resetPassword: '/reset-password',
  link: (id: string) => `/links/${seg(id)}`,
  /** A link's readable copy (its author and the editors of its collections only). */
  readableCopy: (id: string) => `/links/${seg(id)}/read`,
  profile: (userId: string) => `/profile/${seg(userId)}`,
  /** A collection as its owner and collaborators edit it. */
  supercuration: (id: string) => `/supercurations/${seg(id)}`,
  /** A public collection's page, for everyone. */
  publicSupercuration: (slug: string) => `/supercurations/public/${seg(slug)}`,
  /** The short address of a public collection (directory cards); the server redirects it. */
  shortSupercuration: (slug: string) => `/s/${seg(slug)}`,
  /** A public collection's RSS feed (private collections have none). */
  collectionFeed: (slug: string) => `/supercurations/public/${seg(slug)}/feed.xml`,
  /** A user's RSS feed of their main-feed links. */
  userFeed: (userId: string) => `/users/${seg(userId)}/feed.xml`,
} as const;
