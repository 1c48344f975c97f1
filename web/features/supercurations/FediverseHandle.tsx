import { Copy } from 'lucide-react';
import { Button } from '../../../shared/ui/primitives/button';
import { copyLink } from '../../lib/clipboard';

/**
 * How to follow a public collection, or a curator, from Mastodon or another fediverse server:
 * search for its handle there. Shown only when this server federates. `followers`: how many do (a
 * collection's page says).
 */
export function FediverseHandle({ handle, followers = 0 }: { handle: string; followers?: number }) {
  return (
    <div className="grid gap-2 rounded-lg border bg-background p-4 text-sm">
      <p className="font-medium" id="fediverse-handle-label">
        Follow from Mastodon or the fediverse
      </p>
      <div className="flex items-center gap-2">
        <code aria-labelledby="fediverse-handle-label" className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1.5 font-mono text-xs" title={handle}>
          {handle}
        </code>
        <Button variant="outline" size="icon" aria-label="Copy fediverse handle" title="Copy handle" onClick={() => void copyLink(handle, 'Handle copied to clipboard')}>
          <Copy aria-hidden="true" />
        </Button>
      </div>
      <p className="text-muted-foreground">
        Search for it on your server and follow: new resources arrive in your home timeline.
        {followers > 0 && ` ${followers} ${followers === 1 ? 'account follows' : 'accounts follow'} it from there.`}
      </p>
    </div>
  );
}
