import { parseHTML } from 'linkedom';
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, imageProxyUrl, imageSrcSet, imageVariantUrl } from '../../shared/domain';
import { Avatar } from '../../shared/ui/primitives/avatar';
import { Thumbnail } from '../../shared/ui/Thumbnail';

const UPLOAD = '/api/uploads/images/0123456789abcdef0123456789abcdef.webp';
const EXTERNAL = 'https://img.example/a b.png?x=1&y=2';
const PROXIED = imageProxyUrl(EXTERNAL) as string;

/** The component rendered as the server would (no browser), and its <img>'s attributes. */
function render<P extends object>(component: FunctionComponent<P>, props: P) {
  const html = renderToStaticMarkup(createElement(component, props));
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const img = document.querySelector('body > img');
  const attributes = img ? Object.fromEntries([...img.attributes].map((a) => [a.name.toLowerCase(), a.value])) : null;
  return { html, attributes, preloads: document.querySelectorAll('link[rel=preload]').length };
}

describe('image variant addresses', () => {
  it('adds ?w= to our uploads and &w= to proxied images, for each allowed width', () => {
    expect(IMAGE_WIDTHS).toEqual([320, 640, 960]);
    expect(imageVariantUrl(UPLOAD, 640)).toBe(`${UPLOAD}?w=640`);
    expect(imageVariantUrl(PROXIED, 320)).toBe(`${PROXIED}&w=320`);
    expect(new URL(imageVariantUrl(PROXIED, 960) as string, 'http://our.example').searchParams.get('url')).toBe(EXTERNAL);
  });

  it('has none for what our server does not resize', () => {
    for (const shown of [EXTERNAL, '/api/uploads/avatars/u/1.webp', `${PROXIED}&w=320`, '/api/images/proxy?url=', '/logo.png']) {
      expect([shown, imageVariantUrl(shown, 320), imageSrcSet(shown)]).toEqual([shown, null, null]);
    }
  });

  it('lists the three variants in a srcset, on another origin for the extension', () => {
    expect(imageSrcSet(UPLOAD)).toBe(`${UPLOAD}?w=320 320w, ${UPLOAD}?w=640 640w, ${UPLOAD}?w=960 960w`);
    expect(imageSrcSet(UPLOAD, 'https://curate.example')).toBe(
      IMAGE_WIDTHS.map((w) => `https://curate.example${UPLOAD}?w=${w} ${w}w`).join(', '),
    );
  });
});

describe('Thumbnail', () => {
  const sizes = '(min-width: 640px) 144px, 64px';

  it('is lazy and decoded asynchronously by default, without srcset when its displayed width is not given', () => {
    const { attributes, preloads } = render(Thumbnail, { src: EXTERNAL });
    expect(attributes).toMatchObject({ src: PROXIED, loading: 'lazy', decoding: 'async', referrerpolicy: 'no-referrer', alt: '' });
    expect(attributes).not.toHaveProperty('srcset');
    expect(attributes).not.toHaveProperty('sizes');
    expect(attributes).not.toHaveProperty('fetchpriority');
    expect(preloads).toBe(0);
  });

  it('offers the 320/640/960 variants with the given sizes, and the box size as width and height', () => {
    const { attributes } = render(Thumbnail, { src: UPLOAD, sizes, width: 382, height: 200 });
    expect(attributes).toMatchObject({ src: UPLOAD, srcset: imageSrcSet(UPLOAD), sizes, width: '382', height: '200', loading: 'lazy' });
  });

  it('marks a priority image eager with fetchpriority=high (and React preloads it when rendered on the server)', () => {
    const { attributes, preloads } = render(Thumbnail, { src: EXTERNAL, sizes, priority: true });
    expect(attributes).toMatchObject({ loading: 'eager', fetchpriority: 'high', decoding: 'async', srcset: imageSrcSet(PROXIED) });
    expect(preloads).toBe(1);
  });

  it('takes its variants from our server on another origin (the extension)', () => {
    const { attributes } = render(Thumbnail, { src: UPLOAD, baseUrl: 'https://curate.example', sizes });
    expect(attributes).toMatchObject({ src: `https://curate.example${UPLOAD}`, srcset: imageSrcSet(UPLOAD, 'https://curate.example') });
  });

  it('leaves out srcset for an image our server does not resize, and shows the fallback for no image', () => {
    const other = '/api/uploads/other/picture.webp';
    const { attributes } = render(Thumbnail, { src: other, sizes });
    expect(attributes).toMatchObject({ src: other, loading: 'lazy' });
    expect(attributes).not.toHaveProperty('srcset');
    expect(attributes).not.toHaveProperty('sizes');
    expect(render(Thumbnail, { src: 'data:image/png;base64,AAAA', fallback: createElement('span', null, 'none') }).html).toBe('<span>none</span>');
  });

  it('renders the same markup every time (hydration-safe)', () => {
    const props = { src: EXTERNAL, sizes, width: 640, height: 335, priority: true };
    expect(render(Thumbnail, props).html).toBe(render(Thumbnail, props).html);
  });
});

describe('Avatar', () => {
  it('is a lazily loaded square box, eager with high priority when asked', () => {
    expect(render(Avatar, { src: '/api/users/u1/avatar?v=2' }).attributes).toMatchObject({
      width: '256',
      height: '256',
      loading: 'lazy',
      decoding: 'async',
    });
    const header = render(Avatar, { src: '/api/users/u1/avatar?v=2', priority: true }).attributes;
    expect(header).toMatchObject({ loading: 'eager', fetchpriority: 'high' });
  });
});
