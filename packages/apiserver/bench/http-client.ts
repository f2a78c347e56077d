/**
 * A minimal HTTP/1.1 client over one keep-alive TCP connection, for the load processes: the
 * request is written as prepared bytes and only the status line, Content-Length and chunked
 * framing of the answer are parsed. node:http's client costs more CPU per request than the
 * server under test (~0.25 ms here), and on a shared 2-core machine every millisecond the load
 * generator spends is one the server does not get; this keeps the figures about the server.
 * Responses are read as the server sends them (Content-Length or chunked; no pipelining).
 */
import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface Reply {
  status: number;
  body: Buffer;
}

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');

interface Head {
  status: number;
  /** undefined: chunked. */
  length: number | undefined;
}

function parseHead(text: string): Head {
  const lines = text.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 'NaN');
  if (!Number.isInteger(status)) throw new Error(`not an HTTP response: ${lines[0] ?? ''}`);
  let length: number | undefined = 0;
  let chunked = false;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    if (name === 'transfer-encoding' && value.toLowerCase().includes('chunked')) chunked = true;
  }
  return { status, length: chunked ? undefined : length };
}

/**
 * Decodes a chunked body, handing each piece of payload on as it arrives (slices of the socket's
 * buffers, no copy). Chunk extensions and trailers are not expected from the server under test.
 */
class ChunkedDecoder {
  private remaining = 0;
  private state: 'size' | 'data' | 'crlf' | 'done' = 'size';
  private sizeLine = '';
  private crlfLeft = 0;

  constructor(
    private readonly onPayload: (piece: Buffer) => void,
    private readonly onEnd: () => void,
  ) {}

  push(buf: Buffer): void {
    let at = 0;
    while (at < buf.length && this.state !== 'done') {
      if (this.state === 'size') {
        const nl = buf.indexOf(0x0a, at);
        if (nl < 0) {
          this.sizeLine += buf.toString('latin1', at);
          return;
        }
        this.sizeLine += buf.toString('latin1', at, nl);
        at = nl + 1;
        const size = parseInt(this.sizeLine.trim(), 16);
        this.sizeLine = '';
        if (!Number.isFinite(size)) throw new Error('bad chunk size');
        if (size === 0) {
          this.state = 'done';
          this.onEnd();
          return;
        }
        this.remaining = size;
        this.state = 'data';
      } else if (this.state === 'data') {
        const take = Math.min(this.remaining, buf.length - at);
        this.onPayload(buf.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0) {
          this.state = 'crlf';
          this.crlfLeft = 2;
        }
      } else {
        const take = Math.min(this.crlfLeft, buf.length - at);
        at += take;
        this.crlfLeft -= take;
        if (this.crlfLeft === 0) this.state = 'size';
      }
    }
  }
}

export class Connection {
  private readonly socket: Socket;
  private readonly ready: Promise<void>;
  private head: Buffer | undefined;
  private onData: ((buf: Buffer) => void) | undefined;
  private failure: ((e: Error) => void) | undefined;

  /** `ca`: the server's CA (PEM) for an https URL. */
  constructor(
    url: string,
    private readonly headers: Readonly<Record<string, string>>,
    ca?: string,
  ) {
    const u = new URL(url);
    const at = { host: u.hostname, port: Number(u.port), noDelay: true };
    const tls = u.protocol === 'https:';
    this.socket = tls ? connectTls({ ...at, ...(ca ? { ca } : {}) }) : connect(at);
    this.ready = new Promise((resolve, reject) => {
      this.socket.once(tls ? 'secureConnect' : 'connect', resolve);
      this.socket.once('error', reject);
    });
    this.socket.on('data', (buf: Buffer) => {
      this.onData?.(buf);
    });
    this.socket.on('error', (e) => this.failure?.(e));
    this.socket.on('close', () => this.failure?.(new Error('connection closed')));
  }

  private requestBytes(method: string, path: string, body?: string, contentType?: string): Buffer {
    let text = `${method} ${path} HTTP/1.1\r\nHost: bench\r\n`;
    for (const [k, v] of Object.entries(this.headers)) text += `${k}: ${v}\r\n`;
    if (body !== undefined)
      text += `Content-Type: ${contentType ?? 'application/json'}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    return Buffer.from(`${text}\r\n${body ?? ''}`);
  }

  /**
   * Sends a request and resolves with the whole answer; `onPiece`, when given, receives the body
   * as it arrives instead (then `body` is empty), for answers that are never whole (watches).
   */
  async request(
    method: string,
    path: string,
    body?: string,
    contentType?: string,
    onPiece?: (piece: Buffer) => void,
    onHead?: (status: number) => void,
  ): Promise<Reply> {
    await this.ready;
    return new Promise<Reply>((resolve, reject) => {
      let head: Head | undefined;
      const pieces: Buffer[] = [];
      let got = 0;
      const done = (status: number) => {
        this.onData = undefined;
        this.failure = undefined;
        resolve({
          status,
          body: pieces.length === 1 ? (pieces[0] ?? Buffer.alloc(0)) : Buffer.concat(pieces),
        });
      };
      const piece = (p: Buffer) => {
        if (onPiece) onPiece(p);
        else pieces.push(p);
      };
      let chunked: ChunkedDecoder | undefined;
      const readBody = (buf: Buffer) => {
        if (!head) return;
        if (chunked) {
          chunked.push(buf);
          return;
        }
        const want = (head.length ?? 0) - got;
        const take = buf.subarray(0, want);
        got += take.length;
        piece(take);
        if (got === head.length) done(head.status);
      };
      this.failure = reject;
      this.onData = (buf) => {
        if (head) {
          readBody(buf);
          return;
        }
        const all = this.head ? Buffer.concat([this.head, buf]) : buf;
        const end = all.indexOf(HEADER_END);
        if (end < 0) {
          this.head = all;
          return;
        }
        this.head = undefined;
        head = parseHead(all.toString('latin1', 0, end));
        const status = head.status;
        onHead?.(status);
        if (head.length === undefined)
          chunked = new ChunkedDecoder(piece, () => {
            done(status);
          });
        else if (head.length === 0) {
          done(status);
          return;
        }
        readBody(all.subarray(end + HEADER_END.length));
      };
      this.socket.write(this.requestBytes(method, path, body, contentType));
    });
  }

  close(): void {
    this.failure = undefined;
    this.socket.destroy();
  }
}
