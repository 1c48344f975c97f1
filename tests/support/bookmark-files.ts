import { BOOKMARKS_FOOTER, BOOKMARKS_HEADER, type ParsedBookmark } from '../../server/services/bookmark-file';

/**
 * A bookmarks file of `depth` folders (f0, f1, ...), each inside the previous one, with `count`
 * bookmarks in the innermost, at https://{host}/0, /1, ... (10,000 folders and 49,000
 * bookmarks make 2.7 MB; 40,000 folders alone 1.5 MB).
 */
export function nestedBookmarkFile(depth: number, count: number, host = 'deep.example.com'): string {
  const parts = [BOOKMARKS_HEADER];
  for (let i = 0; i < depth; i++) parts.push(`<DT><H3>f${i}</H3>\n<DL><p>\n`);
  for (let i = 0; i < count; i++) parts.push(`<DT><A HREF="https://${host}/${i}">b${i}</A>\n`);
  for (let i = 0; i < depth; i++) parts.push('</DL><p>\n');
  parts.push(BOOKMARKS_FOOTER);
  return parts.join('');
}

/** `html` as the multipart body of an upload's field 'file' (bookmarks.html): its bytes and content type. */
export async function multipartUpload(html: string): Promise<{ contentType: string; bytes: Uint8Array<ArrayBuffer> }> {
  const data = new FormData();
  data.append('file', new Blob([html], { type: 'text/html' }), 'bookmarks.html');
  const encoded = new Request('http://upload.invalid/', { method: 'POST', body: data });
  return { contentType: encoded.headers.get('content-type') ?? '', bytes: new Uint8Array(await encoded.arrayBuffer()) };
}

/** A bookmark as an import reader gave it, in a shape easy to compare (dates as ISO text). */
export const comparableBookmark = (b: ParsedBookmark) => ({
  row: b.row,
  href: b.href,
  title: b.title,
  description: b.description,
  tags: b.tags,
  saved: b.addDate === null ? null : new Date(b.addDate * 1000).toISOString(),
  folder: b.folder?.title ?? null,
  ...(b.folder?.description ? { folderDescription: b.folder.description } : {}),
  ...(b.liked ? { liked: true } : {}),
});
