import type { LinkPreview } from '../domain/links';
import type { ShareFormValues } from './shareForm';

/**
 * Preview & Share's starting values for a new link, from the server's preview of its URL. The
 * format the page suggests (oEmbed, og:type) is preselected: the form opens on it, before the user
 * has chosen any, and they may change or clear it.
 *
 * Apart from shareForm.ts (types only): the add-link box of My Feed's first load imports it, and
 * the form's validation (zod) stays in the lazily loaded dialog.
 */
export function shareFormValuesOfPreview(preview: LinkPreview): Partial<ShareFormValues> {
  return {
    url: preview.url,
    title: preview.title,
    description: preview.description,
    thumbnailUrl: preview.thumbnailUrl ?? '',
    format: preview.format,
  };
}
