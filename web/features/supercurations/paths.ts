/** The public page of a collection. */
export const publicPath = (slug: string) => `/supercurations/public/${encodeURIComponent(slug)}`;

/** The short address of a collection (directory cards); the server redirects it to the public page. */
export const shortPath = (slug: string) => `/s/${encodeURIComponent(slug)}`;
