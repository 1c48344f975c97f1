import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A stand-in for the built web app (pass it as WEB_DIR): the server only needs its index.html. */
export function standInWebDir(
  indexHtml = '<!doctype html><html><head><title>Supercurate</title></head><body><div id="root"></div></body></html>',
): string {
  const webDir = mkdtempSync(path.join(tmpdir(), 'supercurate-web-'));
  writeFileSync(path.join(webDir, 'index.html'), indexHtml);
  return webDir;
}
