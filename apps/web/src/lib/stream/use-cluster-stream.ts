import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { applyChanges } from './apply-changes';
import { ClusterStream, type StreamStatus } from './cluster-stream';
import { collectChanges } from './reducer';

/** Opens the cluster's stream for as long as the calling component is mounted. */
export function useClusterStream(namespace: string, cluster: string): ClusterStream {
  const client = useQueryClient();
  const [stream] = useState(
    () =>
      new ClusterStream({
        namespace,
        cluster,
        onBatch: (events) => {
          applyChanges(client, namespace, cluster, collectChanges(events));
        },
      }),
  );
  useEffect(() => {
    stream.start();
    return () => {
      stream.close();
    };
  }, [stream]);
  return stream;
}

export const StreamContext = createContext<ClusterStream | undefined>(undefined);

const idle: StreamStatus = { state: 'connecting', lastEventAt: undefined };
const noop = () => () => undefined;

/** The freshness of the page's data: live, reconnecting, or when the last update came. */
export function useStreamStatus(): StreamStatus {
  const stream = useContext(StreamContext);
  return useSyncExternalStore(stream?.subscribe ?? noop, stream?.getStatus ?? (() => idle));
}
