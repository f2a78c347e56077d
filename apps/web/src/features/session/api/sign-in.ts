import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Token mode: the BFF checks the bearer token against the API server and seals a session. */
export const signIn = (token: string) =>
  request<unknown>('/session', { method: 'POST', body: { token } });

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: async () => {
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });
      await client.invalidateQueries({ queryKey: queryKeys.session });
    },
  });
}
