import { DEFAULT_LINK_TEXT, URL_MAX_LENGTH } from '../../shared/domain/constants';
import type { CreateLinkInput, LinkPreview, ShareLinkInput } from '../../shared/domain/links';
import type { ReadableUpload } from '../../shared/domain/readable';
import { displayHost } from '../../shared/domain/url';
import type { ShareFormValues } from '../../shared/ui/shareForm';
import type { PageCapture } from './capture';
import { fileNameOf } from './pages';
import { LINK_MESSAGES } from '../../shared/domain/messages';

/** What Preview & Share starts from for a new link. */
export type ShareDraft = Pick<ShareFormValues, 'url' | 'title' | 'description' | 'thumbnailUrl' | 'format'>;

const fits = (url: string | null | undefined) => (url && url.length <= URL_MAX_LENGTH ? url : '');

/** The page as captured: its canonical URL when it has one. */
export function draftFromCapture(capture: PageCapture): ShareDraft {
  const url = fits(capture.canonicalUrl) || capture.url;
  return {
    url,
    title: capture.title || (capture.contentType.includes('html') ? '' : fileNameOf(url)) || displayHost(url) || url,
    description: capture.description,
    thumbnailUrl: fits(capture.image),
    format: capture.format,
  };
}

/** The server's preview of a URL (for pages that say nothing themselves, and links right-clicked). */
export function draftFromPreview(url: string, preview: LinkPreview | null, capture?: PageCapture | null): ShareDraft {
  const isFile = capture ? !capture.contentType.includes('html') : false;
  const host = displayHost(url) ?? url;
  const title = preview?.title && !(isFile && preview.title === host) ? preview.title : fileNameOf(url) || host;
  return {
    url,
    title,
    description: preview?.description ?? LINK_MESSAGES.noPreview,
    thumbnailUrl: fits(preview?.thumbnailUrl),
    format: capture?.format ?? preview?.format ?? null,
  };
}

/** A new link from a draft, for "Add to supercuration" (no form: the description can't be empty). */
export function linkInputOf(draft: ShareDraft): CreateLinkInput {
  return {
    url: draft.url,
    title: draft.title.trim() || draft.url,
    description: draft.description.trim() || LINK_MESSAGES.noPreview,
    linkText: DEFAULT_LINK_TEXT,
    thumbnailUrl: draft.thumbnailUrl || null,
    format: draft.format,
  };
}

/**
 * A new link with the article the page capture kept (issue 23), while its URL is still the page
 * captured: a URL changed in the form is another page, whose copy the server makes itself.
 */
export function withReadableCopy(input: CreateLinkInput, capturedUrl: string, readable: ReadableUpload | null): ShareLinkInput {
  return readable && input.url === capturedUrl ? { ...input, readable } : input;
}
