import { BellMinus, BellPlus } from 'lucide-react';
import type { UserProfile } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { useSubscriptionToggle } from './useFollowing';

/**
 * Subscribe / Unsubscribe for a signed-in viewer on someone else's profile (the caller hides it on
 * the viewer's own). Subscribing shares the viewer's name and e-mail with the publisher, which the
 * button's description says.
 */
export function SubscribeButton({ user, viewerId }: { user: UserProfile; viewerId: string }) {
  const toggle = useSubscriptionToggle(user.id, viewerId);
  const subscribed = user.isSubscribed === true;
  const hintId = `subscribe-hint-${user.id}`;
  return (
    <div className="flex flex-col items-start gap-1 sm:items-end">
      <Button
        variant={subscribed ? 'outline' : 'default'}
        disabled={toggle.isPending}
        aria-describedby={subscribed ? undefined : hintId}
        onClick={() => toggle.mutate(!subscribed)}
      >
        {subscribed ? <BellMinus aria-hidden="true" /> : <BellPlus aria-hidden="true" />}
        {subscribed ? 'Unsubscribe' : 'Subscribe'}
      </Button>
      {!subscribed && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {user.name} will see your name and e-mail.
        </p>
      )}
    </div>
  );
}
