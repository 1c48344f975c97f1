import { Download } from 'lucide-react';
import { api } from '../../lib/api';
import { SettingsCard } from './SettingsCard';

const linkClass =
  'inline-flex h-10 items-center gap-2 rounded-md border border-input px-4 text-sm outline-none hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring';

/** "Export my data": one JSON file, and a bookmarks file of my links beside it (plain downloads). */
export function DataSection() {
  return (
    <SettingsCard
      id="account-data"
      title="Your data"
      description="Your profile, links, topics, collections (with resources and tags), likes, subscriptions and subscribers, as one JSON file; or your links as a bookmarks file any browser imports."
    >
      <div className="flex flex-wrap gap-2">
        <a href={api.accountExportUrl()} download className={linkClass}>
          <Download aria-hidden="true" className="size-4" />
          Export my data
        </a>
        <a href={api.bookmarksExportUrl()} download className={linkClass}>
          <Download aria-hidden="true" className="size-4" />
          Bookmarks file of my links
        </a>
      </div>
    </SettingsCard>
  );
}
