/**
 * A small real MP4 header: an `ftyp` box (isom, brands isom iso2 avc1 mp41), an empty `free` box, and an `mdat`
 * box carrying the video's prompt, so a test can tell which video it downloaded.
 */
export function createFakeMp4(prompt: string): Buffer {
  const ftyp = Buffer.from("AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDEAAAAIZnJlZQ==", "base64");
  const payload = Buffer.from(prompt, "utf8");
  const mdatHeader = Buffer.alloc(8);
  mdatHeader.writeUInt32BE(8 + payload.length, 0);
  mdatHeader.write("mdat", 4, "latin1");
  return Buffer.concat([ftyp, mdatHeader, payload]);
}
