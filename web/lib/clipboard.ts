import toast from 'react-hot-toast';
import { LINK_MESSAGES } from '../../shared/domain';

/** Copies `text`, then toasts 'Link copied to clipboard' (or `copied`) or 'Failed to copy link' (SPEC §8). */
export async function copyLink(text: string, copied: string = LINK_MESSAGES.linkCopied): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(copied);
  } catch {
    toast.error(LINK_MESSAGES.copyFailed);
  }
}
