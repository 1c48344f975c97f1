import { Minus, Plus } from 'lucide-react';
import type { SupercurationSummary } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { useSession } from '../../entities/session/useSession';
import { useFollowToggle } from './mutations';

/**
 * Follow / Unfollow on someone else's public collection, for a signed-in viewer (its editors see
 * its changes where they make them, and visitors subscribe by e-mail instead).
 */
export function FollowButton({ supercuration: s, size }: { supercuration: SupercurationSummary; size?: 'sm' }) {
  const { user } = useSession();
  const toggle = useFollowToggle(s.id);
  if (!user || s.canEdit || !s.isPublic) return null;
  const label = s.isFollowing ? 'Unfollow' : 'Follow';
  return (
    <Button
      variant={s.isFollowing ? 'outline' : 'default'}
      size={size}
      disabled={toggle.isPending}
      // On a card, among others: which collection the button is for.
      aria-label={size ? `${label} ${s.title}` : undefined}
      onClick={() => toggle.mutate(!s.isFollowing)}
    >
      {s.isFollowing ? <Minus aria-hidden="true" /> : <Plus aria-hidden="true" />}
      {label}
    </Button>
  );
}

/** "1 follower", "12 followers". */
export function followersText(count: number): string {
  return `${count} ${count === 1 ? 'follower' : 'followers'}`;
}
