/** The smallest and largest frame AWS event streams allow (prelude + CRCs; 16 MiB). */
const minimumFrameLength = 16;
const maximumFrameLength = 16 * 1024 * 1024;

export class BrokenEventStreamError extends Error {}

/**
 * Cuts an AWS event stream's bytes, in whatever pieces they arrive, into whole frames (each starts with its total
 * length, big-endian); the codec then checks and decodes each one. A length out of bounds is a broken stream, and
 * bytes left over at the end are a frame cut short.
 */
export class EventStreamFrameSplitter {
  private pending: Buffer = Buffer.alloc(0);

  push(piece: Uint8Array): Buffer[] {
    this.pending = this.pending.length === 0 ? Buffer.from(piece) : Buffer.concat([this.pending, piece]);
    const frames: Buffer[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt32BE(0);
      if (length < minimumFrameLength || length > maximumFrameLength)
        throw new BrokenEventStreamError(`An event stream frame declares ${length} bytes.`);
      if (this.pending.length < length) break;
      frames.push(this.pending.subarray(0, length));
      this.pending = this.pending.subarray(length);
    }
    return frames;
  }

  end(): void {
    if (this.pending.length > 0) throw new BrokenEventStreamError("The event stream ended inside a frame.");
  }
}
