import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One TCP connection to the platform, written byte for byte (framing a client library would never
 * send), answers read one at a time. `next()` resolves with the next answer, or null when the
 * server closed the connection instead; a connection that does neither within `waitMs` rejects
 * (the liveness bound of a hang, not a timing assertion).
 */
export class RawConnection {
  private buffered = Buffer.alloc(0);
  private closed = false;
  private wake: (() => void) | null = null;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
    socket.on('error', () => undefined);
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  async next(waitMs = 15_000): Promise<RawAnswer | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const answer = this.take();
      if (answer) return answer;
      if (this.closed) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('The connection neither answered nor closed');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private take(): RawAnswer | null {
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.buffered.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let length = Number(headers['content-length'] ?? 0);
    let start = end + 4;
    let body: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const chunks: Buffer[] = [];
      for (;;) {
        const lineEnd = this.buffered.indexOf('\r\n', start);
        if (lineEnd < 0) return null;
        const size = parseInt(this.buffered.subarray(start, lineEnd).toString('latin1'), 16);
        if (this.buffered.length < lineEnd + 2 + size + 2) return null;
        chunks.push(this.buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
        start = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(chunks);
      length = 0;
    } else {
      if (this.buffered.length < start + length) return null;
      body = this.buffered.subarray(start, start + length);
    }
    this.buffered = this.buffered.subarray(start + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body: body.toString('utf8') };
  }
}
