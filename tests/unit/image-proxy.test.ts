import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageProxyUrl } from '../../shared/domain';
import { proxiedUrl, proxyStorageKey, rasterFormat } from '../../server/preview/image-proxy';

describe('imageProxyUrl', () => {
  it('is null for no image and for anything but http(s)', () => {
    for (const value of [null, undefined, '', '  ', 'javascript:alert(1)', 'data:image/png;base64,AAAA', 'ftp://a.example/x.png']) {
      expect([value, imageProxyUrl(value)]).toEqual([value, null]);
    }
    for (const value of ['/relative.png', '//cdn.example/x.png', 'cdn.example/x.png', '/api/uploads/../secret']) {
      expect([value, imageProxyUrl(value)]).toEqual([value, null]);
    }
  });

  it('leaves our own uploads (and already proxied paths) as they are', () => {
    const upload = '/api/uploads/images/0123456789abcdef0123456789abcdef.webp';
    expect(imageProxyUrl(upload)).toBe(upload);
    const proxied = imageProxyUrl('https://img.example/a.png') as string;
    expect(imageProxyUrl(proxied)).toBe(proxied);
  });

  it('routes any other http(s) URL through the proxy, encoded so its query string survives', () => {
    const url = 'https://img.example/a b.png?x=1&y=2#f';
    const proxied = imageProxyUrl(url);
    expect(proxied).toBe(`/api/images/proxy?url=${encodeURIComponent(url)}`);
    expect(new URL(proxied as string, 'http://our.example').searchParams.get('url')).toBe(url);
    expect(imageProxyUrl('http://img.example/x.jpg')).toBe('/api/images/proxy?url=http%3A%2F%2Fimg.example%2Fx.jpg');
  });
});

describe('image proxy: url and storage key', () => {
  it('accepts absolute http(s) URLs only, as URL spells them', () => {
    expect(proxiedUrl('https://IMG.example/a.png')).toBe('https://img.example/a.png');
    for (const raw of [undefined, ['https://a.example/x'], '', 'a.example/x.png', 'javascript:1', 'file:///etc/passwd']) {
      expect(proxiedUrl(raw)).toBeNull();
    }
    expect(proxiedUrl(`https://a.example/${'a'.repeat(3000)}`)).toBeNull();
  });

  it('keys by sha256 of the URL without its fragment, fanned out by 2 hex digits', () => {
    const key = proxyStorageKey('https://img.example/a.png');
    const hash = createHash('sha256').update('https://img.example/a.png').digest('hex');
    expect(key).toBe(`proxy/${hash.slice(0, 2)}/${hash}.webp`);
    expect(proxyStorageKey('https://img.example/a.png#x')).toBe(key);
    expect(proxyStorageKey('https://img.example/a.png?v=2')).not.toBe(key);
  });
});

describe('image proxy: raster sniffing', () => {
  const create = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } });

  it('recognises JPEG, PNG, GIF, WebP and AVIF by their bytes', async () => {
    expect(rasterFormat(await create().jpeg().toBuffer())).toBe('jpeg');
    expect(rasterFormat(await create().png().toBuffer())).toBe('png');
    expect(rasterFormat(await create().gif().toBuffer())).toBe('gif');
    expect(rasterFormat(await create().webp().toBuffer())).toBe('webp');
    expect(rasterFormat(await create().avif().toBuffer())).toBe('avif');
  });

  it('refuses SVG, polyglots carrying <svg, TIFF, HTML and nothing', async () => {
    const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(rasterFormat(Buffer.from(svg))).toBeNull();
    expect(rasterFormat(Buffer.from(`GIF89a${'<svg onload="x">'}`))).toBeNull();
    expect(rasterFormat(await create().tiff().toBuffer())).toBeNull();
    expect(rasterFormat(Buffer.from('<!doctype html><html></html>'))).toBeNull();
    expect(rasterFormat(Buffer.alloc(0))).toBeNull();
  });
});
