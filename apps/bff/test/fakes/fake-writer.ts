import { parseStreamEvent, type StreamEvent } from '@dcs/domain';
import type { SseWriter } from '../../src/stream/client';

export interface Frame {
  event?: string;
  id?: string;
  data?: unknown;
}

/** An SSE socket stand-in: records frames; `full` makes writes report backpressure until drained. */
export class FakeWriter implements SseWriter {
  readonly chunks: string[] = [];
  full = false;
  ended = false;
  #drain: (() => void) | undefined;

  write(chunk: string | Buffer): boolean {
    this.chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    return !this.full;
  }
  onDrain(listener: () => void): void {
    this.#drain = listener;
  }
  end(): void {
    this.ended = true;
  }
  drain(): void {
    this.full = false;
    this.#drain?.();
  }

  frames(): Frame[] {
    return this.chunks.flatMap((c) =>
      c
        .split('\n\n')
        .filter((block) => block.trim() !== '' && !block.startsWith('retry:'))
        .map((block) => {
          const f: Frame = {};
          for (const line of block.split('\n')) {
            const i = line.indexOf(': ');
            const k = line.slice(0, i);
            const v = line.slice(i + 2);
            if (k === 'event') f.event = v;
            else if (k === 'id') f.id = v;
            else if (k === 'data') f.data = JSON.parse(v) as unknown;
          }
          return f;
        }),
    );
  }

  /** The data of default (unnamed) events. */
  /** The data of unnamed events (view changes and resyncs), as domain's parser reads them. */
  data(): StreamEvent[] {
    return this.frames().flatMap((f) => {
      if (f.event !== undefined) return [];
      const e = parseStreamEvent(JSON.stringify(f.data));
      return e ? [e] : [];
    });
  }
}
