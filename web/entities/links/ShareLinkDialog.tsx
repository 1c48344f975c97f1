import { Copy, MessageCircle } from 'lucide-react';
import type { Link } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../shared/ui/primitives/dialog';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { copyLink } from '../../lib/clipboard';
import { paths } from '../../../shared/domain/paths';

/** The X logo (lucide has no brand icons). */
function XLogo() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d="M18.244 2.25h3.308l-7.227 8.26 8.502 11.24H16.17l-5.214-6.817L4.99 21.75H1.68l7.73-8.835L1.254 2.25H8.08l4.713 6.231zm-1.161 17.52h1.833L7.084 4.126H5.117z" />
    </svg>
  );
}

/** Share a link's page: copy its address, or post it on X or WhatsApp (opened by the user's click). */
export function ShareLinkDialog({ link, open, onOpenChange }: { link: Link; open: boolean; onOpenChange: (open: boolean) => void }) {
  const pageUrl = `${window.location.origin}${paths.link(link.id)}`;
  const xUrl = `https://x.com/intent/tweet?text=${encodeURIComponent(link.title)}&url=${encodeURIComponent(pageUrl)}`;
  const whatsAppUrl = `https://wa.me/?text=${encodeURIComponent(`${link.title} ${pageUrl}`)}`;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Share</DialogTitle>
          <DialogDescription className="line-clamp-2 break-words">{link.title}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="share-page-url">Link</Label>
          <div className="flex gap-2">
            <Input id="share-page-url" readOnly value={pageUrl} onFocus={(e) => e.target.select()} />
            <Button onClick={() => void copyLink(pageUrl)}>
              <Copy aria-hidden="true" />
              Copy link
            </Button>
          </div>
        </div>
        <div className="grid gap-2 sm:grid-cols-2">
          <Button variant="outline" asChild>
            <a href={xUrl} target="_blank" rel="noopener noreferrer">
              <XLogo />
              Share on X
            </a>
          </Button>
          <Button variant="outline" asChild>
            <a href={whatsAppUrl} target="_blank" rel="noopener noreferrer">
              <MessageCircle aria-hidden="true" />
              Share on WhatsApp
            </a>
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
