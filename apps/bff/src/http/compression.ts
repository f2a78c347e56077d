import type { FastifyCompressOptions } from '@fastify/compress';
import { constants } from 'node:zlib';

/**
 * How the API's JSON answers are compressed (issue 28: the Node Pools tab of 200 pools on a
 * 1.6 Mbit/s link waited for ~450 KB of JSON). Brotli at quality 4 compresses a view model about
 * as well as gzip's default at a fraction of brotli's default (11) CPU; gzip for clients without
 * br. Answers under 1 KiB are sent as they are.
 */
export const API_COMPRESSION: FastifyCompressOptions = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
};
