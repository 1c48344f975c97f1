/**
 * The bodies of our e-mails: one plain-text part and one simple HTML part saying the same thing.
 * Every value is escaped for HTML; links are kept only when they are absolute http(s) URLs
 * (PUBLIC_URL pages or shared links), so nothing a user typed can become markup or a script URL.
 */

export interface EmailItem {
  title: string;
  url: string;
  description?: string;
  /** A short line under the title, e.g. who added it. */
  note?: string;
}

/** A titled group of items (a personal digest's curator or collection). */
export interface EmailSection {
  heading: string;
  /** Where the heading links to (absolute http(s)). */
  url?: string;
  items: EmailItem[];
}

export interface EmailContent {
  /** The first heading, e.g. the collection's title. */
  heading: string;
  /** Paragraphs of plain text. */
  paragraphs: string[];
  /** A list of links (a digest's new resources). */
  items?: EmailItem[];
  /** Lists of links under their own headings, after `items`. */
  sections?: EmailSection[];
  /** The main button, e.g. 'Confirm subscription'. */
  action?: { label: string; url: string };
  /** Why the reader gets this e-mail. */
  footer?: string;
  /** Shown as an 'Unsubscribe' link at the bottom (and given to the Mailer for the List-Unsubscribe headers). */
  unsubscribeUrl?: string;
}

export interface EmailBodies {
  text: string;
  html: string;
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** The URL when it is an absolute http(s) URL, else null. */
export function safeHttpUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** Collapses line breaks and runs of spaces of one-line values (titles), so they can't fake structure. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

type SafeItem = { title: string; url: string | null; description?: string; note?: string };

const safeItem = (i: EmailItem): SafeItem => ({
  title: oneLine(i.title),
  url: safeHttpUrl(i.url),
  description: i.description?.trim() || undefined,
  note: i.note ? oneLine(i.note) : undefined,
});

const textItems = (items: SafeItem[]) =>
  items.flatMap((i) => [
    `- ${i.title}`,
    ...(i.note ? [`  ${i.note}`] : []),
    ...(i.url ? [`  ${i.url}`] : []),
    ...(i.description ? [`  ${oneLine(i.description)}`] : []),
    '',
  ]);

const htmlItems = (items: SafeItem[]) =>
  items.length === 0
    ? []
    : [
        '<ul style="margin:0 0 16px;padding-left:20px">',
        ...items.map(
          (i) =>
            `<li style="margin:0 0 12px">${
              i.url
                ? `<a href="${escapeHtml(i.url)}" style="color:#2563eb;font-weight:600">${escapeHtml(i.title)}</a>`
                : `<strong>${escapeHtml(i.title)}</strong>`
            }${i.note ? `<br><span style="color:#64748b;font-size:13px">${escapeHtml(i.note)}</span>` : ''}${
              i.description ? `<br><span style="color:#475569">${escapeHtml(i.description)}</span>` : ''
            }</li>`,
        ),
        '</ul>',
      ];

export function renderEmail(content: EmailContent): EmailBodies {
  const action = content.action ? { label: oneLine(content.action.label), url: safeHttpUrl(content.action.url) } : null;
  const unsubscribe = content.unsubscribeUrl ? safeHttpUrl(content.unsubscribeUrl) : null;
  const items = (content.items ?? []).map(safeItem);
  const sections = (content.sections ?? []).map((g) => ({ heading: oneLine(g.heading), url: g.url ? safeHttpUrl(g.url) : null, items: g.items.map(safeItem) }));

  const text = [
    oneLine(content.heading),
    '',
    ...content.paragraphs.flatMap((p) => [p.trim(), '']),
    ...textItems(items),
    ...sections.flatMap((g) => [g.url ? `${g.heading} (${g.url})` : g.heading, '', ...textItems(g.items)]),
    ...(action?.url ? [`${action.label}: ${action.url}`, ''] : []),
    ...(content.footer || unsubscribe ? ['-- '] : []),
    ...(content.footer ? [content.footer.trim()] : []),
    ...(unsubscribe ? [`Unsubscribe: ${unsubscribe}`] : []),
  ].join('\n');

  const p = (body: string, style = 'margin:0 0 16px') => `<p style="${style}">${body}</p>`;
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(oneLine(content.heading))}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f8fafc;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#0f172a;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">',
    `<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(oneLine(content.heading))}</h1>`,
    ...content.paragraphs.map((para) => p(escapeHtml(para.trim()).replace(/\r?\n/g, '<br>'))),
    ...htmlItems(items),
    ...sections.flatMap((g) => [
      `<h2 style="margin:24px 0 8px;font-size:16px">${
        g.url ? `<a href="${escapeHtml(g.url)}" style="color:#0f172a">${escapeHtml(g.heading)}</a>` : escapeHtml(g.heading)
      }</h2>`,
      ...htmlItems(g.items),
    ]),
    ...(action?.url
      ? [
          p(
            `<a href="${escapeHtml(action.url)}" style="display:inline-block;background:#2563eb;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:8px;font-weight:600">${escapeHtml(action.label)}</a>`,
            'margin:24px 0',
          ),
        ]
      : []),
    ...(content.footer || unsubscribe
      ? [
          '<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0 16px">',
          ...(content.footer ? [p(escapeHtml(content.footer.trim()), 'margin:0 0 8px;font-size:12px;color:#64748b')] : []),
          ...(unsubscribe
            ? [p(`<a href="${escapeHtml(unsubscribe)}" style="color:#64748b">Unsubscribe</a>`, 'margin:0;font-size:12px;color:#64748b')]
            : []),
        ]
      : []),
    '</div></body></html>',
  ].join('\n');

  return { text, html };
}
