import type { KindName } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The raw object for the YAML view; the BFF never includes Secret data. */
export const getObject = (namespace: string, kind: KindName, name: string, signal?: AbortSignal) =>
  request<Record<string, unknown>>(
    `/namespaces/${seg(namespace)}/objects/${seg(kind)}/${seg(name)}`,
    { signal },
  );

export const objectQueryOptions = (namespace: string, kind: KindName, name: string) =>
  queryOptions({
    queryKey: queryKeys.object(namespace, kind, name),
    queryFn: ({ signal }) => getObject(namespace, kind, name, signal),
    staleTime: 5_000,
  });

export const useObject = (namespace: string, kind: KindName, name: string, enabled = true) =>
  useQuery({ ...objectQueryOptions(namespace, kind, name), enabled });
