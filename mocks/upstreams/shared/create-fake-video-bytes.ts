/**
 * A tiny but well-formed MP4 (an `ftyp` box and an `mdat` box holding `label`), so a test can tell which task's
 * video it downloaded and a client's type sniffing sees an MP4.
 */
export function createFakeVideoBytes(label: string): Buffer {
  const brand = Buffer.from("isom\0\0\u0002\0isomiso2mp41", "latin1");
  const ftyp = Buffer.concat([box(8 + brand.length, "ftyp"), brand]);
  const payload = Buffer.from(label, "utf8");
  return Buffer.concat([ftyp, box(8 + payload.length, "mdat"), payload]);
}

function box(size: number, type: string): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(size, 0);
  header.write(type, 4, "latin1");
  return header;
}
