import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const signOut = () => request<unknown>('/session', { method: 'DELETE' });

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSettled: async () => {
      // Nothing read with the old identity may be shown to the next one.
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });
      await client.invalidateQueries({ queryKey: queryKeys.session });
    },
  });
}
