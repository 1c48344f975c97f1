import toast from 'react-hot-toast';
import { LINK_MESSAGES } from '../../shared/domain';

/** Copies `text`, then toasts 'Link copied to clipboard' or 'Failed to copy link' (SPEC §8). */
export async function copyLink(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(LINK_MESSAGES.linkCopied);
  } catch {
    toast.error(LINK_MESSAGES.copyFailed);
  }
}
