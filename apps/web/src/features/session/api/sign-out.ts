import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** OIDC mode answers with the provider's sign-out page (RP-initiated logout); else nothing. */
export const signOut = () =>
  request<{ logoutUrl?: string } | null | undefined>('/session', { method: 'DELETE' });

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: (answer) => {
      // Signed out here; now at the provider, which sends the browser back to /sign-in.
      const url = answer?.logoutUrl;
      if (typeof url === 'string' && /^https?:\/\//.test(url)) window.location.assign(url);
    },
    onSettled: async () => {
      // Nothing read with the old identity may be shown to the next one.
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });
      await client.invalidateQueries({ queryKey: queryKeys.session });
    },
  });
}
