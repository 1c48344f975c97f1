import { useOutletContext } from 'react-router';
import type { UserProfile } from '../../../shared/domain';

/** The signed-in user, inside a page of ProtectedLayout (which passes it as the outlet context). */
export function useCurrentUser(): UserProfile {
  return useOutletContext<UserProfile>();
}
