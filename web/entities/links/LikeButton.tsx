import { Heart } from 'lucide-react';
import { useId } from 'react';
import type { Link } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { Button } from '../../../shared/ui/primitives/button';
import { useToggleLike } from './useLinkMutations';

/** Like / unlike with the count; shows the result at once and settles on the server's answer. */
export function LikeButton({ link }: { link: Link }) {
  const countId = useId();
  const toggle = useToggleLike(link);
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label="Like"
      aria-pressed={link.liked}
      aria-describedby={countId}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate()}
      className={cn('h-9 gap-1.5 px-2.5 tabular-nums disabled:opacity-100', link.liked && 'text-rose-600')}
    >
      <Heart aria-hidden="true" className={cn(link.liked && 'fill-current')} />
      <span id={countId}>
        {link.likes}
        <span className="sr-only"> {link.likes === 1 ? 'like' : 'likes'}</span>
      </span>
    </Button>
  );
}
