import { House, Layers, Rss, Users, type LucideIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { cn } from '../../shared/ui/cn';

interface NavEntry {
  to: string;
  label: string;
  icon: LucideIcon;
  isActive: (pathname: string) => boolean;
}

const NAV: NavEntry[] = [
  { to: '/home', label: 'My Feed', icon: House, isActive: (p) => p === '/home' || p === '/saved' },
  { to: '/following', label: 'Following', icon: Rss, isActive: (p) => p === '/following' },
  { to: '/supercurations', label: 'My Supercurations', icon: Layers, isActive: (p) => p.startsWith('/supercurations') },
  { to: '/dashboard', label: 'My Subscribers', icon: Users, isActive: (p) => p === '/dashboard' },
];

/** The entries of the signed-in navigation (SPEC §2's three and Following), the current one highlighted. */
export function AppNav({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = useLocation().pathname.replace(/(.)\/+$/, '$1');
  return (
    <nav aria-label="Main" className="flex-1 space-y-1 p-3">
      {NAV.map(({ to, label, icon: Icon, isActive }) => {
        const active = isActive(pathname);
        return (
          <Link
            key={to}
            to={to}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring',
              active ? 'bg-accent text-accent-foreground' : 'text-muted-foreground hover:bg-muted hover:text-foreground',
            )}
          >
            <Icon aria-hidden="true" className="size-4" />
            {label}
          </Link>
        );
      })}
    </nav>
  );
}
