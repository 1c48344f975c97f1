import { Globe, Lock } from 'lucide-react';
import { cn } from '../../../shared/ui/cn';

/** 'Public' or 'Private', with an icon. */
export function VisibilityBadge({ isPublic, className }: { isPublic: boolean; className?: string }) {
  const Icon = isPublic ? Globe : Lock;
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium',
        isPublic ? 'bg-emerald-50 text-emerald-800 ring-1 ring-emerald-200' : 'bg-secondary text-secondary-foreground ring-1 ring-border',
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-3" />
      {isPublic ? 'Public' : 'Private'}
    </span>
  );
}
