import { Copy, ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../shared/ui/primitives/button';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { copyLink } from '../../lib/clipboard';
import { paths } from '../../../shared/domain/paths';

/** The public page's address, to copy or open. */
export function PublicUrl({ slug }: { slug: string }) {
  const path = paths.publicSupercuration(slug);
  const url = `${window.location.origin}${path}`;
  return (
    <div className="grid max-w-2xl gap-2">
      <Label htmlFor="public-url">Public URL</Label>
      <div className="flex gap-2">
        <Input id="public-url" readOnly value={url} onFocus={(e) => e.target.select()} className="font-mono text-xs sm:text-xs" />
        <Button variant="outline" size="icon" aria-label="Copy public URL" title="Copy link" onClick={() => void copyLink(url)}>
          <Copy aria-hidden="true" />
        </Button>
        <Button variant="outline" size="icon" asChild>
          <Link to={path} aria-label="Open public page" title="Open public page">
            <ExternalLink aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </div>
  );
}
