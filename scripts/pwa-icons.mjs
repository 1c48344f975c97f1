// Draws the installable app's icons from web/public/favicon.svg into web/public/icons/ (committed;
// run again after changing the favicon): `node scripts/pwa-icons.mjs`.
//   icon-192.png, icon-512.png   the favicon as it is (rounded square)
//   maskable-512.png             full-bleed background, the mark inside the central safe zone (80 %)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const favicon = readFileSync(path.join(root, 'web/public/favicon.svg'), 'utf8');
const out = (name) => path.join(root, 'web/public/icons', name);

const maskable = favicon
  .replace(/<rect width="64" height="64" rx="14" fill="#2563eb"\/>/, '<rect width="64" height="64" fill="#2563eb"/><g transform="translate(9.6 9.6) scale(0.7)">')
  .replace('</svg>', '</g></svg>');
if (maskable === favicon) throw new Error('favicon.svg changed: update the maskable variant');

for (const size of [192, 512]) {
  await sharp(Buffer.from(favicon), { density: (72 * size) / 64 }).resize(size, size).png().toFile(out(`icon-${size}.png`));
}
await sharp(Buffer.from(maskable), { density: (72 * 512) / 64 }).resize(512, 512).png().toFile(out('maskable-512.png'));
console.log('web/public/icons: icon-192.png, icon-512.png, maskable-512.png');
