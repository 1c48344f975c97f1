import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of the site. */
export type SitePage = (res: http.ServerResponse) => void;

/** A page that sends `body` with the given Content-Type and status 200. */
export const sitePage =
  (type: string, body: Buffer | string): SitePage =>
  (res) => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  };

export interface ImageSite {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Requests per path (query strings ignored). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A local third-party site on 127.0.0.1 for the image proxy or a feed import to fetch from (with PREVIEW_ALLOW_PRIVATE):
 * `pages` by path, anything else `missing`. It counts the requests per path.
 */
export function startImageSite(pages: Record<string, SitePage>, missing: SitePage): Promise<ImageSite> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site.invalid');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    (pages[url.pathname] ?? missing)(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        port,
        hits,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
