import { useQuery } from '@tanstack/react-query';
import { postInvitationLookup } from './auth.api';

/** The invitation link's address (the sign-up form fills it in); an error when the link is invalid, expired or used. */
export function useInvitation(token: string | null) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: () => postInvitationLookup(token ?? ''),
    enabled: token !== null && token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
