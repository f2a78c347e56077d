import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError, issue, notFound } from '../../http/errors';
import { errorResponses, StreamQuery } from '../../http/schemas';
import { readerOf } from './access';
import { socketWriter } from '../../stream/client';

/**
 * `GET /api/v1/stream?cluster={namespace}/{cluster}`: one Server-Sent Events stream per tab,
 * authorized when it opens (the same access review as the REST reads), closed when the session
 * ends, resumable with `Last-Event-ID` (stream/hub.ts).
 */
const stream: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/stream',
    {
      schema: {
        tags: ['stream'],
        summary: 'Server-Sent Events of pool, machine and IP-pool view changes of one cluster',
        querystring: StreamQuery,
        response: { ...errorResponses },
      },
    },
    async (request, reply) => {
      const [namespace = '', cluster = ''] = request.query.cluster.split('/');
      const principal = await readerOf(app, request, namespace);
      if (!app.views.current(namespace, cluster).exists()) {
        throw notFound(`cluster ${namespace}/${cluster} not found`, 'cluster');
      }
      if (app.hub.clients >= app.config.sse.maxClients) {
        throw new HttpError(
          503,
          'TooManyStreams',
          'this replica serves its maximum of streams; retry',
          [issue('R-REQUEST', 'cluster', 'bff.stream.full', 'too many streams on this replica')],
        );
      }
      reply.hijack();
      // The stream is written straight to the socket, without chunked encoding: one write per
      // batch instead of three buffers, which counts with thousands of streams. The body ends
      // with the connection (HTTP/1.1 close-delimited), as a stream does anyway.
      const res = reply.raw;
      const socket = res.socket;
      if (!socket) return;
      const headers: Record<string, string> = {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store, no-transform',
        connection: 'close',
        // Reverse proxies (nginx) must not buffer a stream.
        'x-accel-buffering': 'no',
      };
      for (const [k, v] of Object.entries(res.getHeaders())) {
        if (v !== undefined && !(k in headers))
          headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      }
      const head = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.setNoDelay(true);
      socket.write(`HTTP/1.1 200 OK\r\n${head}\r\n`);
      const header = request.headers['last-event-id'];
      const client = app.hub.subscribe({
        namespace,
        cluster,
        lastEventId: Array.isArray(header) ? header[0] : header,
        writer: socketWriter(socket),
        expiresAt: principal.expiresAt,
        sessionId: principal.sessionId,
      });
      if (!client) {
        socket.end();
        return;
      }
      socket.on('close', () => {
        client.close();
      });
      // A sign-out that this replica learnt of while the stream was being authorized came before
      // the subscription it would have ended: check once more now that the stream is listed.
      const sid = principal.sessionId;
      if (sid !== undefined && (await app.revocations.revoked(sid))) app.hub.endSession(sid);
    },
  );
  return Promise.resolve();
};

export default stream;
